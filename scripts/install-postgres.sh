#!/usr/bin/env bash
# Installs PostgreSQL for the team-backend end-to-end tests (Debian's `postgresql` package) when no
# server binaries are found; prints their directory as its last line. RESTCLOUD_PG_BIN names another.
set -euo pipefail

log() { echo "[postgres] $*" >&2; }

found() {
  if [ -n "${RESTCLOUD_PG_BIN:-}" ]; then
    [ -x "$RESTCLOUD_PG_BIN/initdb" ] && echo "$RESTCLOUD_PG_BIN"
    return
  fi
  # Debian keeps the server's binaries per major version, off PATH.
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return
    fi
  done
}

BIN="$(found || true)"
if [ -n "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
if [ -n "${RESTCLOUD_PG_BIN:-}" ]; then
  log "RESTCLOUD_PG_BIN=$RESTCLOUD_PG_BIN holds no initdb"
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  log "no PostgreSQL server and no apt-get: install PostgreSQL and set RESTCLOUD_PG_BIN to its bin directory"
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    log "no PostgreSQL server, not root and no sudo: run 'apt-get install postgresql' as root"
    exit 1
  fi
  SUDO="sudo"
fi

log "installing Debian's postgresql package"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# The package would start a cluster of its own; the tests start theirs, so none is made here.
$SUDO mkdir -p /etc/postgresql-common
echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.conf >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends postgresql >&2

BIN="$(found || true)"
if [ -z "$BIN" ]; then
  log "the postgresql package installed no initdb under /usr/lib/postgresql"
  exit 1
fi
echo "$BIN"
