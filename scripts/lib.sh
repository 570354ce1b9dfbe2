# Shell helpers the project's scripts share; source it, do not run it:
#
#   . "$(dirname "$0")/lib.sh"        (from scripts/)
#   . scripts/lib.sh                  (from the repository's root)

# apt_install PACKAGE...: installs Debian's packages, with sudo unless root, quietly,
# and without the packages they only recommend (Chromium's are a desktop's: printer
# setup, Samba, a notification daemon, Perl's web modules; headless needs none of
# them). Its progress goes to stderr, so a script whose stdout is its answer can call it.
apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    # Another apt at work (.ci/run sets up in two lanes) is waited for, not an error.
    local wait=(-o DPkg::Lock::Timeout=600)
    $sudo apt-get "${wait[@]}" update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get "${wait[@]}" install -y -qq \
        --no-install-recommends "$@" >&2
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
