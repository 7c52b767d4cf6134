/* Run as root inside a turn's guest: takes a copy of PID 1's descriptor of
 * the org.arizuko.turn port (pidfd_getfd, which root may use on any process;
 * the port itself opens only once, so open() gives EBUSY) and writes a file's
 * bytes to it, as a hostile agent would forge protocol lines.
 *
 * usage: channel-forger FILE
 * Prints "forged N bytes through PID 1's fd M" or why it could not. */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static int pid1_port_fd(void)
{
    DIR *fds = opendir("/proc/1/fd");
    if (!fds) {
        perror("opendir /proc/1/fd");
        return -1;
    }
    int found = -1;
    struct dirent *entry;
    while ((entry = readdir(fds)) != NULL && found < 0) {
        char path[300], target[256];
        snprintf(path, sizeof path, "/proc/1/fd/%s", entry->d_name);
        const ssize_t length = readlink(path, target, sizeof target - 1);
        if (length <= 0)
            continue;
        target[length] = '\0';
        if (strstr(target, "vport") != NULL)
            found = atoi(entry->d_name);
    }
    closedir(fds);
    return found;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: channel-forger FILE\n");
        return 2;
    }
    const int input = open(argv[1], O_RDONLY);
    if (input < 0) {
        perror(argv[1]);
        return 1;
    }
    const int target = pid1_port_fd();
    if (target < 0) {
        fprintf(stderr, "PID 1 holds no vport descriptor\n");
        return 1;
    }
    const int pidfd = (int)syscall(SYS_pidfd_open, 1, 0);
    if (pidfd < 0) {
        perror("pidfd_open(1)");
        return 1;
    }
    const int port = (int)syscall(SYS_pidfd_getfd, pidfd, target, 0);
    if (port < 0) {
        perror("pidfd_getfd");
        return 1;
    }
    static char buffer[1 << 16];
    long long total = 0;
    ssize_t got;
    while ((got = read(input, buffer, sizeof buffer)) > 0) {
        for (ssize_t done = 0; done < got;) {
            const ssize_t wrote = write(port, buffer + done, (size_t)(got - done));
            if (wrote < 0) {
                if (errno == EINTR)
                    continue;
                perror("write to the port");
                return 1;
            }
            done += wrote;
            total += wrote;
        }
    }
    printf("forged %lld bytes through PID 1's fd %d\n", total, target);
    return 0;
}
