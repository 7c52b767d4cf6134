"""A git server over HTTPS for the inspected-hosts tests, and Debian's git
for the guest (whose image carries none).

GitServer: `git http-backend` (Debian's git, CGI) behind a small HTTPS
server on 127.0.0.1 with a certificate of its own (https_origin), serving
the bare repositories under one directory. Every request must carry HTTP
Basic credentials: one without them gets 401 (git then asks its credential
helper), and every pair received is recorded, as is each request's method
and path, so a test sees what reached the server, not what the guest says.

install_guest_git: the host's git and git-remote-https and the libraries
`ldd` names for them (less the C library, the guest's own Debian libc6 of
the same release) copied into a directory of the turn's home; the guest
runs them with guest_git_environment."""

import base64
import os
import pathlib
import shutil
import subprocess
import threading

from https_origin import LoopbackServer, TlsHandler

GIT = "/usr/bin/git"
GIT_CORE = "/usr/lib/git-core"
# Not copied: the guest's own (Debian 12's libc6, as the host's).
GUEST_PROVIDES = ("libc.so.6", "ld-linux-x86-64.so.2", "linux-vdso.so.1")


def git(*arguments, cwd=None):
    result = subprocess.run([GIT, *arguments], cwd=cwd, capture_output=True, text=True,
                            timeout=60, env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1",
                                             "HOME": str(cwd or "/nonexistent")})
    if result.returncode != 0:
        raise AssertionError(f"git {' '.join(arguments)}: {result.stderr}")
    return result.stdout.strip()


def make_repository(root, name):
    """A bare repository root/name whose branch main holds one commit,
    returned with that commit's hash."""
    seed = pathlib.Path(root, "seed")
    seed.mkdir()
    git("init", "-q", "-b", "main", cwd=seed)
    (seed / "README").write_text("served by git http-backend\n")
    git("add", "README", cwd=seed)
    git("-c", "user.name=origin", "-c", "user.email=origin@git.test", "commit", "-q", "-m",
        "first", cwd=seed)
    git("clone", "-q", "--bare", str(seed), str(pathlib.Path(root, name)), cwd=root)
    shutil.rmtree(seed)
    return head_of(pathlib.Path(root, name))


def head_of(repository, branch="main"):
    return git("--git-dir", str(repository), "rev-parse", "--verify", "-q", branch,
               cwd=repository.parent)


class GitServer(LoopbackServer):
    """`git http-backend` for the repositories under `root`, over HTTPS
    with `tls`, asking for Basic credentials; `credentials` holds each
    (user, password) it got, `requests` each (method, path without query)."""

    def __init__(self, tls, root):
        self.root = pathlib.Path(root)
        self.credentials = []
        self.requests = []
        lock = threading.Lock()
        server = self

        class Handler(TlsHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                self.serve()

            def do_POST(self):
                self.serve()

            def serve(self):
                path, _, query = self.path.partition("?")
                body = self.read_body()
                with lock:
                    server.requests.append((self.command, path))
                user = self.basic_user()
                if user is None:
                    self.answer(401, b"", [("WWW-Authenticate", 'Basic realm="git"')])
                    return
                environment = {
                    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                    "GIT_PROJECT_ROOT": str(server.root), "GIT_HTTP_EXPORT_ALL": "1",
                    "GIT_CONFIG_NOSYSTEM": "1", "GATEWAY_INTERFACE": "CGI/1.1",
                    "REQUEST_METHOD": self.command, "PATH_INFO": path, "QUERY_STRING": query,
                    "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                    "CONTENT_LENGTH": str(len(body)), "REMOTE_USER": user,
                    "REMOTE_ADDR": self.client_address[0]}
                for name in ("Content-Encoding", "Git-Protocol"):
                    if self.headers.get(name):
                        environment["HTTP_" + name.upper().replace("-", "_")] = self.headers[name]
                backend = subprocess.run([GIT, "http-backend"], input=body, capture_output=True,
                                         env=environment, timeout=60)
                head, _, content = backend.stdout.partition(b"\r\n\r\n")
                if not _:
                    head, _, content = backend.stdout.partition(b"\n\n")
                status, fields = 200, []
                for line in head.decode("latin-1").splitlines():
                    name, _, value = line.partition(":")
                    if name.lower() == "status":
                        status = int(value.split()[0])
                    elif name:
                        fields.append((name, value.strip()))
                self.answer(status, content, fields)

            def read_body(self):
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0], 16)
                        chunk = self.rfile.read(size + 2)[:size]
                        if size == 0:
                            return body
                        body += chunk
                return self.rfile.read(int(self.headers.get("Content-Length", "0")))

            def basic_user(self):
                scheme, _, encoded = self.headers.get("Authorization", "").partition(" ")
                if scheme.lower() != "basic":
                    return None
                user, _, password = base64.b64decode(encoded).decode(errors="replace").partition(":")
                with lock:
                    server.credentials.append((user, password))
                return user

        super().__init__(Handler, tls)


def install_guest_git(directory):
    """git, git-remote-https and the libraries they load, into `directory`
    (a turn's home is shared with its guest), for guest_git_environment."""
    directory = pathlib.Path(directory)
    libraries = directory / "lib"
    libraries.mkdir(parents=True, exist_ok=True)
    programs = (GIT, f"{GIT_CORE}/git-remote-https")
    for program in programs:
        shutil.copy(program, directory)
        for line in subprocess.run(["ldd", program], capture_output=True, text=True,
                                   check=True).stdout.splitlines():
            words = line.split()
            if words and words[0] not in GUEST_PROVIDES and "=>" in words:
                shutil.copy(os.path.realpath(words[2]), libraries / words[0])


def guest_git_environment(directory):
    """The shell assignments that make a guest run the git install_guest_git
    put in `directory` (a path as the guest sees it): its programs first on
    PATH and as git's own (GIT_EXEC_PATH: `git clone` runs git-remote-https
    and `git index-pack` from there), its libraries, and no templates (the
    guest has none; git would only warn)."""
    return (f"export PATH={directory}:$PATH GIT_EXEC_PATH={directory} "
            f"LD_LIBRARY_PATH={directory}/lib GIT_TEMPLATE_DIR= GIT_CONFIG_NOSYSTEM=1")

