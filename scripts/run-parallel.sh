#!/usr/bin/env bash
# Runs each argument as a command, all at once (they are single-threaded: `npm test` runs the type check and the
# lint side by side on two cores), prints each one's output whole as it ends, and fails if any failed.
set -uo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pids=()
index=0
for command in "$@"; do
  bash -c "$command" >"$dir/$index.out" 2>&1 &
  pids+=($!)
  index=$((index + 1))
done
status=0
index=0
for command in "$@"; do
  if wait "${pids[$index]}"; then
    echo "> $command: passed"
  else
    echo "> $command: FAILED"
    status=1
  fi
  cat "$dir/$index.out"
  index=$((index + 1))
done
exit $status
