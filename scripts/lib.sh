# Shell helpers the project's scripts share; source it, do not run it:
#
#   . "$(dirname "$0")/lib.sh"        (from scripts/)
#   . scripts/lib.sh                  (from the repository's root)

# apt_install PACKAGE...: installs Debian's packages, with sudo unless root, quietly.
# Its progress goes to stderr, so a script whose stdout is its answer can call it.
apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2
}

# postgres_bin NAME: the path of one of PostgreSQL's programs (initdb, pg_ctl, ...),
# which Debian keeps out of PATH under /usr/lib/postgresql/VERSION/bin; empty when
# PostgreSQL is not installed.
postgres_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/$1" ]; then echo "$dir/$1"; return; fi
    done
    command -v "$1" || true
}
