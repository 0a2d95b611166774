#!/usr/bin/env bash
# Installs the browser the console's end-to-end test drives (tests/e2e/console): Debian's `chromium`
# package, whose binary is /usr/bin/chromium. playwright-core launches it by path; no Playwright
# browser download is ever made.
#
# Idempotent: when the binary is already there it installs nothing and says nothing on stderr.
# RESTCLOUD_CHROMIUM names another binary to use instead (it must exist; nothing is installed).
# Uses sudo only when not run as root. Prints the binary's path as its last line.
set -euo pipefail

log() { echo "[browser] $*" >&2; }
# shellcheck source=apt-install.sh
source "$(dirname "$0")/apt-install.sh"

if [ -n "${RESTCLOUD_CHROMIUM:-}" ]; then
  if [ ! -x "$RESTCLOUD_CHROMIUM" ]; then
    log "RESTCLOUD_CHROMIUM=$RESTCLOUD_CHROMIUM is not an executable file"
    exit 1
  fi
  echo "$RESTCLOUD_CHROMIUM"
  exit 0
fi

BINARY=/usr/bin/chromium
if [ -x "$BINARY" ]; then
  echo "$BINARY"
  exit 0
fi

apt_install "$BINARY (or set RESTCLOUD_CHROMIUM to a Chromium binary)" chromium
if [ ! -x "$BINARY" ]; then
  log "apt-get installed chromium, but $BINARY is not there"
  exit 1
fi
log "$("$BINARY" --version 2>/dev/null || echo chromium)"
echo "$BINARY"
