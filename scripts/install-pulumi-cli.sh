#!/usr/bin/env bash
# Installs the Pulumi CLI at package.json's pulumiVersions.cli, the Node.js language host, the YAML
# language host at pulumiVersions.languageYaml (pulumi-language-yaml, for programs with `runtime: yaml`), the Python language host (for programs with `runtime: python`: the binary
# pulumi-language-python-v3.68.0, the launcher pulumi-language-python that hands it the project's
# venv, and the script pulumi-language-python-exec it runs programs through) and the Go language
# host (pulumi-language-go, for programs with `runtime: go`), into a cache outside the repository.
#
# Order of preference:
#   1. a `pulumi` already on PATH at the right version (with pulumi-language-nodejs beside it;
#      a missing pulumi-language-yaml, -python or -go there is reported, not built);
#   2. binaries already in the cache (a second run costs well under a second);
#   3. a build from Go modules in a throw-away wrapper module (the upstream go.mod
#      files carry replace directives, so a plain `go install` refuses them), of only the
#      binaries the cache lacks: a cache built before the YAML host gets just that (a minute or two),
#      one built before the Python or the Go host just that (a minute or two cold, seconds with a
#      warm Go build cache).
#
# Beside `pulumi`, as in the official distribution, it puts pulumi-resource-pulumi-nodejs: the plugin
# that serves dynamic providers (a two-line script that runs @pulumi/pulumi's dynamic-provider from the
# program's node_modules). Found there, the CLI needs no node_modules/@pulumi/pulumi on PATH and prints
# no "using pulumi-resource-pulumi-nodejs from $PATH" warning. A cache built before this is fixed too.
#
# Prints the directory that holds the binaries as its last line.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The versions: package.json's "pulumiVersions" (the CLI, built from pkg/v3 at that version, and the
# YAML host), independent of the @pulumi/pulumi range the package admits; PULUMI_VERSION overrides.
tested_version() { node -p "require('$ROOT/package.json').pulumiVersions.$1"; }
VERSION="${PULUMI_VERSION:-$(tested_version cli)}"
CACHE="${RESTCLOUD_PULUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-restcloud}"
BIN="$CACHE/pulumi-v$VERSION/bin"

log() { echo "[pulumi-cli] $*" >&2; }

# The YAML language host: its own module and tags (github.com/pulumi/pulumi-yaml), independent of
# the CLI's version; it serves `runtime: yaml` programs and needs no SDK of ours.
YAML_HOST="pulumi-language-yaml"
YAML_HOST_MODULE="github.com/pulumi/pulumi-yaml"
YAML_HOST_VERSION="${PULUMI_LANGUAGE_YAML_VERSION:-$(tested_version languageYaml)}"

# The Python language host: in the sdk module up to v3.68.0 (as the Node.js host below, and for the
# same reason). It runs the program through the script pulumi-language-python-exec, which it looks
# for on PATH (hence beside pulumi). That host takes the project's venv (`runtime.options.virtualenv`
# in Pulumi.yaml) only from its -virtualenv flag, which older CLIs passed and CLI 3.259 does not (it
# sends the options in its requests, which that host does not read): so the binary is
# pulumi-language-python-v3.68.0, and pulumi-language-python is a launcher that reads the option
# from the Pulumi.yaml of its working directory (the CLI starts it in the project's) and passes the
# flag. Without the option the program runs with the python on PATH.
PYTHON_HOST="pulumi-language-python"
PYTHON_HOST_EXEC="pulumi-language-python-exec"
PYTHON_HOST_MODULE="github.com/pulumi/pulumi/sdk/v3"
PYTHON_HOST_VERSION="${PULUMI_LANGUAGE_PYTHON_VERSION:-v3.68.0}"
PYTHON_HOST_BINARY="$PYTHON_HOST-$PYTHON_HOST_VERSION"
PYTHON_HOST_LAUNCHER='#!/bin/sh
# The Python language host ('"$PYTHON_HOST_BINARY"', beside this script), given the project'"'"'s
# venv (Pulumi.yaml: runtime.options.virtualenv) as a flag, the one way that host reads it.
venv=""
for file in Pulumi.yaml Pulumi.yml; do
  [ -f "$file" ] || continue
  # (block style `virtualenv: venv` or flow style `options: {virtualenv: venv}`; comments skipped)
  venv=$(sed -n -e "/^[[:space:]]*#/d" -e "s/.*[[:space:]{,]virtualenv:[[:space:]]*[\"'"'"']\{0,1\}\([^\"'"'"' #,}]*\).*/\1/p" "$file" | head -n 1)
  break
done
host="$(dirname "$(readlink -f "$0")")/'"$PYTHON_HOST_BINARY"'"
if [ -n "$venv" ]; then exec "$host" -virtualenv "$venv" "$@"; fi
exec "$host" "$@"'

place_python_launcher() { # $1: the bin/ directory that holds pulumi
  local target="$1/$PYTHON_HOST"
  if [ -x "$target" ] && [ "$(cat "$target")" = "$PYTHON_HOST_LAUNCHER" ]; then return 0; fi
  printf '%s\n' "$PYTHON_HOST_LAUNCHER" > "$target.$$.tmp"
  chmod 755 "$target.$$.tmp"
  mv "$target.$$.tmp" "$target"
  log "placed the $PYTHON_HOST launcher beside pulumi in $1"
}

# The Go language host: in the sdk module up to v3.62.0 (go/pulumi-language-go; later releases moved
# it to a module of its own, which the proxy here does not serve). It runs a program as the current
# one does: `go build -o <temp file>` in the project's directory (the environment's GOFLAGS apply,
# go.mod's replace directives too), then the binary; its install step (`pulumi new`) is `go mod tidy`.
GO_HOST="pulumi-language-go"
GO_HOST_MODULE="github.com/pulumi/pulumi/sdk/v3"
GO_HOST_VERSION="${PULUMI_LANGUAGE_GO_VERSION:-v3.62.0}"

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
  printf '%s\n' "$DYNAMIC_PLUGIN_SCRIPT" > "$target.$$.tmp"
  chmod 755 "$target.$$.tmp"
  mv "$target.$$.tmp" "$target"
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
    command -v "$YAML_HOST" >/dev/null 2>&1 ||
      log "warning: no $YAML_HOST on PATH (the official distribution ships it beside pulumi): programs" \
        "with 'runtime: yaml' will not run. Put $YAML_HOST ${YAML_HOST_VERSION} on PATH, or set" \
        "RESTCLOUD_FORCE_PULUMI_BUILD=1 to use (and build once) the cache $BIN instead"
    { command -v "$PYTHON_HOST" >/dev/null 2>&1 && command -v "$PYTHON_HOST_EXEC" >/dev/null 2>&1; } ||
      log "warning: no $PYTHON_HOST with $PYTHON_HOST_EXEC on PATH: programs with 'runtime: python'" \
        "will not run. Set RESTCLOUD_FORCE_PULUMI_BUILD=1 to use (and build once) the cache $BIN instead"
    [ -x "$(dirname "$onpath")/$GO_HOST" ] ||
      log "warning: no $GO_HOST beside $onpath: programs with 'runtime: go' will not run, or Pulumi warns" \
        "that it uses the one on \$PATH. Set RESTCLOUD_FORCE_PULUMI_BUILD=1 to use (and build once) the cache $BIN instead"
    dirname "$onpath"
    exit 0
  fi
  log "ignoring $onpath: not v$VERSION with pulumi-language-nodejs beside it"
fi

# What the cache lacks (a pulumi of another version counts as missing); only that gets built.
missing=""
{ [ -x "$BIN/pulumi" ] && have_version "$BIN/pulumi"; } || missing="$missing pulumi"
[ -x "$BIN/pulumi-language-nodejs" ] || missing="$missing pulumi-language-nodejs"
[ -x "$BIN/$YAML_HOST" ] || missing="$missing $YAML_HOST"
[ -x "$BIN/$PYTHON_HOST_BINARY" ] || missing="$missing $PYTHON_HOST_BINARY"
[ -x "$BIN/$PYTHON_HOST_EXEC" ] || missing="$missing $PYTHON_HOST_EXEC"
[ -x "$BIN/$GO_HOST" ] || missing="$missing $GO_HOST"
needs() { case "$missing " in *" $1 "*) return 0 ;; esac; return 1; }

if [ -z "$missing" ]; then
  place_dynamic_plugin "$BIN"
  place_python_launcher "$BIN"
  log "cached: $BIN"
  echo "$BIN"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  cat >&2 <<MSG
[pulumi-cli] Go is not installed, no Pulumi CLI v$VERSION is on PATH, and the cache $BIN lacks:$missing.
  Either install Go 1.25 or newer (https://go.dev/doc/install) and run 'npm run setup' again,
  or install the Pulumi CLI v$VERSION yourself (https://www.pulumi.com/docs/iac/download-install/),
  with pulumi-language-nodejs, -yaml, -python and -go, and put them on PATH.
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
# Each binary is written to a name of this process's own, then moved into place: concurrent runs
# (each e2e test file calls this script) may build the same binary, and the last one wins, intact.
mkdir -p "$WORK" "$BIN"
start=$(date +%s)

# The wrapper module of a language host built from the sdk module (Node.js, Python, Go), in $1: it
# requires the module $3 at $4 and imports the host's package $5, and `go mod tidy` resolves the
# rest. $2 is the host's name.
host_wrapper_module() {
  local dir="$1" name="$2" module="$3" version="$4" package="$5"
  mkdir -p "$dir"
  cat > "$dir/go.mod" <<MOD
module restcloud.local/$name-build

go 1.21

require $module $version

// restated from the sdk's go.mod
replace golang.org/x/text => golang.org/x/text v0.3.6
MOD
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$package" > "$dir/tools.go"
  log "building $name ($module $version)..."
  (cd "$dir" && go mod tidy 2>&1 | sed -u 's/^/[pulumi-cli]   /' >&2)
}
log "building what $BIN lacks:$missing"

if needs pulumi; then
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
    -o "$BIN/pulumi.$$.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
  mv "$BIN/pulumi.$$.tmp" "$BIN/pulumi"
  log "  pulumi built in $(( $(date +%s) - start ))s"
fi

if needs pulumi-language-nodejs; then
  host_dir="$WORK/pulumi-language-nodejs-$LANGUAGE_HOST_VERSION"
  host_wrapper_module "$host_dir" pulumi-language-nodejs \
    "$LANGUAGE_HOST_MODULE" "$LANGUAGE_HOST_VERSION" "$LANGUAGE_HOST_PACKAGE"
  (cd "$host_dir" && go build -trimpath -ldflags "-s -w" -o "$BIN/pulumi-language-nodejs.$$.tmp" "$LANGUAGE_HOST_PACKAGE")
  mv "$BIN/pulumi-language-nodejs.$$.tmp" "$BIN/pulumi-language-nodejs"
fi

# The YAML host: pulumi-yaml's go.mod has no replace directives, but `go install …@version` asks the
# proxy for the module's version list (for deprecation notices), which the proxy here refuses
# (403), so it too is built in a wrapper module that requires the exact version.
if needs "$YAML_HOST"; then
  yaml_start=$(date +%s)
  yaml_dir="$WORK/$YAML_HOST-$YAML_HOST_VERSION"
  mkdir -p "$yaml_dir"
  cat > "$yaml_dir/go.mod" <<MOD
module restcloud.local/$YAML_HOST-build

go 1.23.0

require $YAML_HOST_MODULE $YAML_HOST_VERSION
MOD
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$YAML_HOST_MODULE/cmd/$YAML_HOST" > "$yaml_dir/tools.go"
  log "building $YAML_HOST ($YAML_HOST_MODULE $YAML_HOST_VERSION)..."
  (cd "$yaml_dir" && go mod tidy 2>&1 | sed -u 's/^/[pulumi-cli]   /' >&2)
  (cd "$yaml_dir" && go build -trimpath \
    -ldflags "-s -w -X $YAML_HOST_MODULE/pkg/version.Version=$YAML_HOST_VERSION" \
    -o "$BIN/$YAML_HOST.$$.tmp" "$YAML_HOST_MODULE/cmd/$YAML_HOST")
  mv "$BIN/$YAML_HOST.$$.tmp" "$BIN/$YAML_HOST"
  log "  $YAML_HOST built in $(( $(date +%s) - yaml_start ))s"
fi
# The Python host, in a wrapper module as the Node.js host; the exec script is a file of the same
# module version, copied from the module cache once the build has downloaded it.
if needs "$PYTHON_HOST_BINARY" || needs "$PYTHON_HOST_EXEC"; then
  py_start=$(date +%s)
  py_dir="$WORK/$PYTHON_HOST-$PYTHON_HOST_VERSION"
  py_package="$PYTHON_HOST_MODULE/python/cmd/$PYTHON_HOST"
  host_wrapper_module "$py_dir" "$PYTHON_HOST" "$PYTHON_HOST_MODULE" "$PYTHON_HOST_VERSION" "$py_package"
  if needs "$PYTHON_HOST_BINARY"; then
    (cd "$py_dir" && go build -trimpath -ldflags "-s -w" -o "$BIN/$PYTHON_HOST_BINARY.$$.tmp" "$py_package")
    mv "$BIN/$PYTHON_HOST_BINARY.$$.tmp" "$BIN/$PYTHON_HOST_BINARY"
  fi
  module_dir="$(cd "$py_dir" && go list -m -f '{{.Dir}}' "$PYTHON_HOST_MODULE")"
  install -m 755 "$module_dir/python/cmd/$PYTHON_HOST_EXEC" "$BIN/$PYTHON_HOST_EXEC.$$.tmp"
  mv "$BIN/$PYTHON_HOST_EXEC.$$.tmp" "$BIN/$PYTHON_HOST_EXEC"
  log "  $PYTHON_HOST built in $(( $(date +%s) - py_start ))s"
fi
# The Go host, in a wrapper module as the Node.js and Python hosts.
if needs "$GO_HOST"; then
  go_start=$(date +%s)
  go_dir="$WORK/$GO_HOST-$GO_HOST_VERSION"
  go_package="$GO_HOST_MODULE/go/$GO_HOST"
  host_wrapper_module "$go_dir" "$GO_HOST" "$GO_HOST_MODULE" "$GO_HOST_VERSION" "$go_package"
  (cd "$go_dir" && go build -trimpath \
    -ldflags "-s -w -X $GO_HOST_MODULE/go/common/version.Version=$GO_HOST_VERSION" \
    -o "$BIN/$GO_HOST.$$.tmp" "$go_package")
  mv "$BIN/$GO_HOST.$$.tmp" "$BIN/$GO_HOST"
  log "  $GO_HOST built in $(( $(date +%s) - go_start ))s"
fi
place_dynamic_plugin "$BIN"
place_python_launcher "$BIN"

log "done in $(( $(date +%s) - start ))s: $BIN"
echo "$BIN"
