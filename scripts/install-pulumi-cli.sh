#!/usr/bin/env bash
# Installs the Pulumi CLI and the Node.js language host at the version of the
# @pulumi/pulumi dependency, into a cache outside the repository.
#
# Order of preference:
#   1. a `pulumi` already on PATH at the right version (with pulumi-language-nodejs beside it);
#   2. binaries already in the cache (a second run costs well under a second);
#   3. a build from Go modules in a throw-away wrapper module (the upstream go.mod
#      files carry replace directives, so a plain `go install` refuses them).
#
# Prints the directory that holds the binaries as its last line.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="${PULUMI_VERSION:-$(node -p "require('$ROOT/node_modules/@pulumi/pulumi/package.json').version" 2>/dev/null || node -p "require('$ROOT/package.json').dependencies['@pulumi/pulumi'].replace(/^[^0-9]*/, '')")}"
CACHE="${RESTCLOUD_PULUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-restcloud}"
BIN="$CACHE/pulumi-v$VERSION/bin"

log() { echo "[pulumi-cli] $*" >&2; }

have_version() { # $1: a pulumi binary
  local v
  v="$("$1" version 2>/dev/null || true)"
  [ "${v#v}" = "$VERSION" ]
}

if [ -z "${RESTCLOUD_FORCE_PULUMI_BUILD:-}" ] && command -v pulumi >/dev/null 2>&1; then
  onpath="$(command -v pulumi)"
  if have_version "$onpath" && command -v pulumi-language-nodejs >/dev/null 2>&1; then
    log "using $onpath (v$VERSION) from PATH"
    dirname "$onpath"
    exit 0
  fi
  log "ignoring $onpath: not v$VERSION with pulumi-language-nodejs beside it"
fi

if [ -x "$BIN/pulumi" ] && [ -x "$BIN/pulumi-language-nodejs" ] && have_version "$BIN/pulumi"; then
  log "cached: $BIN"
  echo "$BIN"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  cat >&2 <<MSG
[pulumi-cli] Go is not installed, and no Pulumi CLI v$VERSION is on PATH.
  Either install Go 1.25 or newer (https://go.dev/doc/install) and run 'npm run setup' again,
  or install the Pulumi CLI v$VERSION yourself (https://www.pulumi.com/docs/iac/download-install/),
  with pulumi-language-nodejs, and put both on PATH.
MSG
  exit 1
fi
