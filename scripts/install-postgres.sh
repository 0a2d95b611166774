#!/usr/bin/env bash
# Installs PostgreSQL for the team-backend end-to-end tests (Debian's `postgresql` package) when no
# server binaries are found; prints their directory as its last line. RESTCLOUD_PG_BIN names another.
set -euo pipefail

log() { echo "[postgres] $*" >&2; }
# shellcheck source=apt-install.sh
source "$(dirname "$0")/apt-install.sh"

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
# The package would start a cluster of its own; the tests start theirs, so none is made here.
if [ ! -f /etc/postgresql-common/createcluster.conf ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO mkdir -p /etc/postgresql-common
  echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.conf >/dev/null
fi
apt_install "PostgreSQL server (or set RESTCLOUD_PG_BIN to its bin directory)" postgresql

BIN="$(found || true)"
if [ -z "$BIN" ]; then
  log "the postgresql package installed no initdb under /usr/lib/postgresql"
  exit 1
fi
echo "$BIN"
