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

if ! command -v apt-get >/dev/null 2>&1; then
  log "no $BINARY and no apt-get: install Chromium yourself and set RESTCLOUD_CHROMIUM to its binary"
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    log "no $BINARY, not root and no sudo: run 'apt-get install chromium' as root"
    exit 1
  fi
  SUDO="sudo"
fi

start=$(date +%s)
log "installing Debian's chromium (apt-get; a minute or two)..."
# apt's and dpkg's chatter goes to a log shown only on failure.
APT_LOG="$(mktemp "${TMPDIR:-/tmp}/install-browser.XXXXXX")"
trap 'rm -f "$APT_LOG"' EXIT
if ! { $SUDO apt-get update -qq &&
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >"$APT_LOG" 2>&1; then
  cat "$APT_LOG" >&2
  log "apt-get could not install chromium (output above)"
  exit 1
fi
if [ ! -x "$BINARY" ]; then
  log "apt-get installed chromium, but $BINARY is not there"
  exit 1
fi
log "installed in $(($(date +%s) - start))s: $("$BINARY" --version 2>/dev/null || echo chromium)"
echo "$BINARY"
