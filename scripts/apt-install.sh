#!/usr/bin/env bash
# Sourced by the install scripts: `apt_install WHAT PACKAGE...` installs Debian packages with apt-get
# (sudo when not root), its chatter shown only on failure; `log` must be defined. Fails, saying what
# to do, without apt-get or a way to be root.
apt_install() {
  local what="$1"
  shift
  if ! command -v apt-get >/dev/null 2>&1; then
    log "no $what and no apt-get: install $* yourself"
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      log "no $what, not root and no sudo: run 'apt-get install $*' as root"
      return 1
    fi
    sudo="sudo"
  fi
  local start apt_log
  start=$(date +%s)
  log "installing Debian's $* (apt-get)..."
  apt_log="$(mktemp "${TMPDIR:-/tmp}/apt-install.XXXXXX")"
  if ! { $sudo apt-get update -qq &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; } >"$apt_log" 2>&1; then
    cat "$apt_log" >&2
    rm -f "$apt_log"
    log "apt-get could not install $* (output above)"
    return 1
  fi
  rm -f "$apt_log"
  log "installed in $(($(date +%s) - start))s"
}
