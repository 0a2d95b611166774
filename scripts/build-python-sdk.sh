#!/usr/bin/env bash
# Builds the Python SDK (sdk/python, generated: do not edit it) into a wheel and an sdist, with PyPA
# `build`, in dist/python/ (or the directory given as $1). Prints the wheel's and the sdist's paths,
# one a line, the wheel first.
#
# The build runs on a copy of sdk/python: setuptools writes its egg-info beside the sources, and
# sdk/ holds only what tools/sdkgen generates. `build` itself lives in a venv of its own in the
# cache (made once), so no Python package is installed into the user's interpreter.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$ROOT/dist/python}" && cd "${1:-$ROOT/dist/python}" && pwd)"
CACHE="${RESTCLOUD_PULUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-restcloud}"
PYTHON="${PYTHON:-python3}"
BUILD_VERSION="1.2.2"
TOOL_VENV="$CACHE/python-build-$BUILD_VERSION"

log() { echo "[python-sdk] $*" >&2; }

command -v "$PYTHON" >/dev/null 2>&1 || { log "no $PYTHON on PATH: install Python 3.9 or newer"; exit 1; }

if ! "$TOOL_VENV/bin/python" -m build --version >/dev/null 2>&1; then
  # Made under a name of this process's own, then moved: concurrent runs each make one, one wins.
  # (Run as `python -m build`: a moved venv still runs so, its scripts' shebangs name the old path.)
  log "making the build tool's venv in $TOOL_VENV"
  mkdir -p "$CACHE"
  tmp="$TOOL_VENV.$$.tmp"
  rm -rf "$tmp"
  "$PYTHON" -m venv "$tmp"
  "$tmp/bin/python" -m pip install --quiet --disable-pip-version-check "build==$BUILD_VERSION"
  mv -T "$tmp" "$TOOL_VENV" 2>/dev/null || rm -rf "$tmp"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R "$ROOT/sdk/python" "$work/src"
find "$work/src" \( -name '__pycache__' -o -name '*.egg-info' \) -prune -exec rm -rf {} +
log "building the wheel and the sdist of $ROOT/sdk/python"
"$TOOL_VENV/bin/python" -m build --outdir "$work/out" "$work/src" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; exit 1; }

wheel="$(ls "$work/out"/*.whl)"
sdist="$(ls "$work/out"/*.tar.gz)"
for file in "$wheel" "$sdist"; do
  mv -f "$file" "$OUT/$(basename "$file")"
  log "$(basename "$file"): $(du -k "$OUT/$(basename "$file")" | cut -f1) KB"
done
echo "$OUT/$(basename "$wheel")"
echo "$OUT/$(basename "$sdist")"
