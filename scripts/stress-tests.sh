#!/usr/bin/env bash
# Runs ./run-tests as a new user would on a busy machine: from a fresh clone of the committed HEAD under
# /tmp, with nothing beside it (no corpus: HOOKLENS_CORPUS is unset), while stress-ng keeps twice as many
# CPU workers busy as there are cores. Repeats it (3 times by default) and stops at the first failure.
#   scripts/stress-tests.sh [--runs N] [ARGS...]     ARGS go to run-tests (e.g. --fast)
# Prints each run's lane totals, time and load average; the run's whole log stays in its folder.
set -euo pipefail
repo="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
# Every run tests the same commit, whatever is committed meanwhile.
commit="$(git -C "$repo" rev-parse HEAD)"
runs=3
if [ "${1:-}" = "--runs" ]; then
  runs="$2"
  shift 2
fi
if ! command -v stress-ng >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "stress-tests: needs stress-ng: sudo apt-get install --no-install-recommends stress-ng" >&2
    exit 2
  fi
  echo "stress-tests: installing stress-ng with apt" >&2
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends --no-upgrade stress-ng
fi
workers=$(( 2 * $(nproc) ))
burner=""
stop_burner() {
  if [ -n "$burner" ]; then
    kill "$burner" 2>/dev/null || true
    wait "$burner" 2>/dev/null || true
    burner=""
  fi
}
trap stop_burner EXIT

for run in $(seq 1 "$runs"); do
  dir="$(mktemp -d /tmp/hooklens-stress.XXXXXX)"
  git clone -q "$repo" "$dir/hooklens" && git -C "$dir/hooklens" checkout -q "$commit"
  stress-ng --cpu "$workers" --quiet &
  burner=$!
  started=$(date +%s)
  status=0
  (cd "$dir/hooklens" && env -u HOOKLENS_CORPUS ./run-tests "$@") > "$dir/run-tests.log" 2>&1 || status=$?
  load="$(cut -d' ' -f1-3 /proc/loadavg)"
  stop_burner
  echo "stress run $run of $runs: exit $status in $(( $(date +%s) - started )) s, load average $load," \
    "$workers CPU workers on $(nproc) cores, clone at $dir/hooklens ($(git -C "$dir/hooklens" rev-parse --short HEAD))"
  grep -E '^run-tests: |^e2e: |Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$' \
    "$dir/run-tests.log" | sed 's/^/  /' || true
  if [ "$status" -ne 0 ]; then
    grep -E '<<< (FAILURE|ERROR)!|^\[ERROR\] +[A-Za-z].*:[0-9]+ ' "$dir/run-tests.log" | head -20 | sed 's/^/  /' || true
    echo "stress-tests: run $run failed; log: $dir/run-tests.log" >&2
    exit "$status"
  fi
  rm -rf "$dir"
done
echo "stress-tests: $runs of $runs runs passed"
