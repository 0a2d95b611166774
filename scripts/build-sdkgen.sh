#!/usr/bin/env bash
# Builds tools/sdkgen (the Python and Go SDK generator, over Pulumi's codegen from pkg/v3) into a
# cache outside the repository, keyed by the digest of its sources: a second run costs well under a
# second. The first build takes about 3 minutes on 2 cores (less after the Pulumi CLI's, whose
# modules and compiled packages it shares). Prints the binary's path as its last line.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/tools/sdkgen"
CACHE="${RESTCLOUD_PULUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-restcloud}"
digest="$(cat "$SRC/go.mod" "$SRC/go.sum" "$SRC"/*.go "$SRC"/runner/*.go | sha256sum | cut -c1-16)"
BIN="$CACHE/sdkgen-$digest/sdkgen"

log() { echo "[sdkgen] $*" >&2; }

if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  log "Go is not installed: the SDK generator (tools/sdkgen) needs Go 1.25 or newer (https://go.dev/doc/install)"
  exit 1
fi
mkdir -p "$(dirname "$BIN")"
start=$(date +%s)
log "building tools/sdkgen (cold: about 3 minutes; cached afterwards in $(dirname "$BIN"))"
# Written to a name of this process's own, then moved: concurrent runs may build it at once.
(cd "$SRC" && GOTOOLCHAIN="${GOTOOLCHAIN:-local}" go build -trimpath -ldflags "-s -w" -o "$BIN.$$.tmp" .)
mv "$BIN.$$.tmp" "$BIN"
log "built in $(( $(date +%s) - start ))s"
echo "$BIN"
