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
# Beside `pulumi`, as in the official distribution, it puts pulumi-resource-pulumi-nodejs: the plugin
# that serves dynamic providers (a two-line script that runs @pulumi/pulumi's dynamic-provider from the
# program's node_modules). Found there, the CLI needs no node_modules/@pulumi/pulumi on PATH and prints
# no "using pulumi-resource-pulumi-nodejs from $PATH" warning. A cache built before this is fixed too.
#
# Prints the directory that holds the binaries as its last line.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="${PULUMI_VERSION:-$(node -p "require('$ROOT/node_modules/@pulumi/pulumi/package.json').version" 2>/dev/null || node -p "require('$ROOT/package.json').dependencies['@pulumi/pulumi'].replace(/^[^0-9]*/, '')")}"
CACHE="${RESTCLOUD_PULUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-restcloud}"
BIN="$CACHE/pulumi-v$VERSION/bin"

log() { echo "[pulumi-cli] $*" >&2; }

# The dynamic-provider plugin, as @pulumi/pulumi ships it, with its arguments quoted.
DYNAMIC_PLUGIN="pulumi-resource-pulumi-nodejs"
DYNAMIC_PLUGIN_SCRIPT='#!/bin/sh
# The Pulumi dynamic-provider plugin: runs @pulumi/pulumi/cmd/dynamic-provider from the program'"'"'s node_modules.
PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH=$(node -e "console.log(require.resolve('"'"'@pulumi/pulumi/cmd/dynamic-provider'"'"'))")
if [ ! -z "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" ]; then
    node "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" "$@"
fi'

place_dynamic_plugin() { # $1: the bin/ directory that holds pulumi
  local target="$1/$DYNAMIC_PLUGIN"
  if [ -x "$target" ] && [ "$(cat "$target")" = "$DYNAMIC_PLUGIN_SCRIPT" ]; then return 0; fi
  printf '%s\n' "$DYNAMIC_PLUGIN_SCRIPT" > "$target.tmp"
  chmod 755 "$target.tmp"
  mv "$target.tmp" "$target"
  log "placed $DYNAMIC_PLUGIN beside pulumi in $1"
}

have_version() { # $1: a pulumi binary
  local v
  v="$("$1" version 2>/dev/null || true)"
  [ "${v#v}" = "$VERSION" ]
}

if [ -z "${RESTCLOUD_FORCE_PULUMI_BUILD:-}" ] && command -v pulumi >/dev/null 2>&1; then
  onpath="$(command -v pulumi)"
  if have_version "$onpath" && command -v pulumi-language-nodejs >/dev/null 2>&1; then
    log "using $onpath (v$VERSION) from PATH"
    [ -x "$(dirname "$onpath")/$DYNAMIC_PLUGIN" ] ||
      log "warning: no $DYNAMIC_PLUGIN beside $onpath: Pulumi will warn that it uses the one on \$PATH"
    dirname "$onpath"
    exit 0
  fi
  log "ignoring $onpath: not v$VERSION with pulumi-language-nodejs beside it"
fi

if [ -x "$BIN/pulumi" ] && [ -x "$BIN/pulumi-language-nodejs" ] && have_version "$BIN/pulumi"; then
  place_dynamic_plugin "$BIN"
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

# --- build from Go modules ---------------------------------------------------------------
# The Node.js language host has its own Go module (sdk/nodejs/cmd/pulumi-language-nodejs/v3), which
# has no tags: it is fetched as a pseudo-version at a release commit. Where the module proxy does not
# serve that module (it does not here), the host is built from the last sdk release that still
# carried it inside the sdk module (v3.68.0): the host only launches @pulumi/pulumi's own `run`
# script from node_modules, whose flags have stayed compatible, so the SDK version in use is ours.
LANGUAGE_HOST_MODULE="${PULUMI_LANGUAGE_NODEJS_MODULE:-github.com/pulumi/pulumi/sdk/v3}"
LANGUAGE_HOST_VERSION="${PULUMI_LANGUAGE_NODEJS_VERSION:-v3.68.0}"
LANGUAGE_HOST_PACKAGE="$LANGUAGE_HOST_MODULE/nodejs/cmd/pulumi-language-nodejs"
if [ "$LANGUAGE_HOST_MODULE" != "github.com/pulumi/pulumi/sdk/v3" ]; then LANGUAGE_HOST_PACKAGE="$LANGUAGE_HOST_MODULE"; fi

export GOFLAGS="${GOFLAGS:-} -mod=mod"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
WORK="$CACHE/build"
mkdir -p "$WORK" "$BIN"
start=$(date +%s)

# The CLI: pkg/v3 at the SDK's version. pkg's go.mod replaces sdk with a relative path and
# github.com/atotto/clipboard with a fork; the wrapper module restates what is needed.
cli_dir="$WORK/pulumi-cli-v$VERSION"
mkdir -p "$cli_dir"
cat > "$cli_dir/go.mod" <<MOD
module restcloud.local/pulumi-cli-build

go 1.25

require (
	github.com/pulumi/pulumi/pkg/v3 v$VERSION
	github.com/pulumi/pulumi/sdk/v3 v$VERSION
)

replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
MOD
printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"\n' > "$cli_dir/tools.go"
log "building the Pulumi CLI v$VERSION from Go modules (cold: about 10 minutes on 2 cores; cached afterwards)"
log "  resolving modules..."
(cd "$cli_dir" && go mod tidy 2>&1 | sed -u 's/^/[pulumi-cli]   /' >&2)
log "  compiling github.com/pulumi/pulumi/pkg/v3/cmd/pulumi..."
(cd "$cli_dir" && go build -trimpath \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$VERSION" \
  -o "$BIN/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
mv "$BIN/pulumi.tmp" "$BIN/pulumi"
log "  pulumi built in $(( $(date +%s) - start ))s"

host_dir="$WORK/pulumi-language-nodejs-$LANGUAGE_HOST_VERSION"
mkdir -p "$host_dir"
cat > "$host_dir/go.mod" <<MOD
module restcloud.local/pulumi-language-nodejs-build

go 1.21

require $LANGUAGE_HOST_MODULE $LANGUAGE_HOST_VERSION

// restated from the sdk's go.mod
replace golang.org/x/text => golang.org/x/text v0.3.6
MOD
printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$LANGUAGE_HOST_PACKAGE" > "$host_dir/tools.go"
log "building pulumi-language-nodejs ($LANGUAGE_HOST_MODULE $LANGUAGE_HOST_VERSION)..."
(cd "$host_dir" && go mod tidy 2>&1 | sed -u 's/^/[pulumi-cli]   /' >&2)
(cd "$host_dir" && go build -trimpath -ldflags "-s -w" -o "$BIN/pulumi-language-nodejs.tmp" "$LANGUAGE_HOST_PACKAGE")
mv "$BIN/pulumi-language-nodejs.tmp" "$BIN/pulumi-language-nodejs"
place_dynamic_plugin "$BIN"

log "done in $(( $(date +%s) - start ))s: $BIN"
echo "$BIN"
