# Run in the guest by test_git_inspected.py, with the git of git_server.py's
# install_guest_git on PATH: git over HTTPS through the turn's proxy, which
# inspects the server's host. $1 is the repository's URL, then the steps
# (clone, commit, push), each printing "GIT STEP ok" or "GIT STEP failed
# <git's last lines>"; commit also prints "GIT head <hash>". The password
# is $GIT_PASSWORD, given to git by a credential helper.
url=$1
shift
helper='!f() { echo username=agent; echo "password=$GIT_PASSWORD"; }; f'
export GIT_TERMINAL_PROMPT=0
for step in "$@"; do
    case $step in
    clone) rm -rf clone && git -c "credential.helper=$helper" clone -q "$url" clone ;;
    commit) echo "from the guest" > clone/guest.txt && git -C clone add guest.txt &&
        git -C clone -c user.name=agent -c user.email=agent@guest.test commit -q -m "from the guest" &&
        echo "GIT head $(git -C clone rev-parse HEAD)" >&3 ;;
    push) git -C clone -c "credential.helper=$helper" push -q origin HEAD:main ;;
    esac 3>&1 > git.out 2>&1
    if [ $? -eq 0 ]; then
        echo "GIT $step ok"
    else
        echo "GIT $step failed $(tail -n 3 git.out | tr '\n' ' ')"
    fi
done
