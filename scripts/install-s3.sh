#!/usr/bin/env bash
# Installs an S3-compatible object store for the team-backend end-to-end tests: moto's server (PyPI),
# in a virtualenv of the cache (once per version). Prints the server's executable as its last line.
# RESTCLOUD_S3_SERVER names another moto_server to use instead (nothing is installed).
set -euo pipefail

MOTO_VERSION=5.2.5
log() { echo "[s3] $*" >&2; }
# shellcheck source=apt-install.sh
source "$(dirname "$0")/apt-install.sh"

if [ -n "${RESTCLOUD_S3_SERVER:-}" ]; then
  [ -x "$RESTCLOUD_S3_SERVER" ] || { log "RESTCLOUD_S3_SERVER=$RESTCLOUD_S3_SERVER is not executable"; exit 1; }
  echo "$RESTCLOUD_S3_SERVER"
  exit 0
fi

CACHE="${RESTCLOUD_PULUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-restcloud}"
VENV="$CACHE/moto-$MOTO_VERSION"
# The marker is written last: a half-done install (killed, offline) is redone.
if [ -f "$VENV/.installed" ]; then
  echo "$VENV/bin/moto_server"
  exit 0
fi

if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  apt_install "python3 venv module" python3-venv
fi

log "installing moto[server] $MOTO_VERSION into $VENV"
rm -rf "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check "moto[server]==$MOTO_VERSION" >&2
touch "$VENV/.installed"
echo "$VENV/bin/moto_server"
