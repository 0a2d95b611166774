#!/usr/bin/env bash
# The demo, offline: start the emulator, `pulumi up` the root Pulumi.yaml (examples/vpc-web), print
# the outputs, change things out of band through the REST API, show the drift with
# `pulumi preview --refresh`, and `pulumi destroy`. Everything lives in a temporary directory.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DELAY_MS="${DEMO_ASYNC_DELAY_MS:-1000}"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "Building the package and installing the Pulumi CLI"
# The build is skipped when dist/ is newer than every source (as right after `npm test`'s build).
if [ -f dist/provider/index.js ] && [ -f dist/emulator/cli.js ] &&
  [ -z "$(find provider emulator bench package.json tsconfig.json tsconfig.build.json -newer dist/provider/index.js -print -quit)" ]; then
  echo "dist/ is up to date"
  node scripts/link-self.js
else
  npm run --silent build
fi
BIN="$(bash scripts/install-pulumi-cli.sh | tail -n 1)"
# The emulator's built-in demo account, as the emulator itself defines it.
API_KEY="$(node -p 'require("./dist/emulator").DEMO_CREDENTIALS.apiKey')"
SECRET_KEY="$(node -p 'require("./dist/emulator").DEMO_CREDENTIALS.secretKey')"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/restcloud-demo-XXXXXX")"
# pulumi, its language host and the dynamic-provider plugin sit side by side in $BIN.
export PATH="$ROOT/node_modules/.bin:$BIN:$PATH"
export PULUMI_HOME="$WORK/home" PULUMI_BACKEND_URL="file://$WORK/backend" PULUMI_CONFIG_PASSPHRASE="restcloud-demo"
export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
mkdir -p "$WORK/backend"
EMULATOR_PID=""
cleanup() {
  [ -n "$EMULATOR_PID" ] && kill "$EMULATOR_PID" 2>/dev/null || true
  rm -rf "$WORK" "$ROOT/Pulumi.demo.yaml"
}
trap cleanup EXIT

step "Starting the emulator (asynchronous work takes ${DELAY_MS} ms)"
node dist/emulator/cli.js --port 0 --async-delay-ms "$DELAY_MS" --state-file "$WORK/emulator.json" >"$WORK/emulator.log" 2>&1 &
EMULATOR_PID=$!
for _ in $(seq 1 100); do
  URL="$(head -n 1 "$WORK/emulator.log" 2>/dev/null | sed -n 's/^listening on //p')"
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "${URL:-}" ] || { cat "$WORK/emulator.log"; echo "the emulator did not start" >&2; exit 1; }
echo "emulator: $URL"

pulumi() { command pulumi "$@" --non-interactive; }
api() { # METHOD PATH [JSON BODY]
  curl -sS -X "$1" "$URL$2" -H "apikey: $API_KEY" -H "secretkey: $SECRET_KEY" \
    ${3:+-H "content-type: application/json" --data "$3"}
}

step "pulumi stack init, config"
pulumi stack init demo
pulumi config set restcloud:apiUrl "$URL"
pulumi config set --secret restcloud:apiKey "$API_KEY"
pulumi config set --secret restcloud:secretKey "$SECRET_KEY"

step "pulumi up"
pulumi up --yes --color never
step "pulumi stack output"
pulumi stack output

step "Changing things out of band, through the REST API: rename the VPC, stop the web server"
VPC_ID="$(pulumi stack output vpcId)"
api PUT /restapi/vpc/updateVpc "{\"uuid\":\"$VPC_ID\",\"name\":\"renamed-by-hand\"}" >/dev/null
WEB_ID="$(command pulumi stack export | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const r = JSON.parse(s).deployment.resources.find((r) => r.urn.endsWith("::web-1"));
    console.log(r.id);
  });')"
api GET "/restapi/instance/stopInstance?uuid=$WEB_ID&forceStop=false" >/dev/null
sleep "$(( DELAY_MS / 1000 + 2 ))"

step "pulumi preview --refresh: the drift"
pulumi preview --refresh --diff --color never

step "pulumi destroy"
pulumi destroy --yes --color never
pulumi stack rm --yes demo
step "Done: the stack is gone and the emulator holds none of its resources"
