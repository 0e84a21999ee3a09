#!/usr/bin/env bash
# The embedded mock against a real control plane (--cluster envtest), side by side in one run: the same
# `hooklens run EXAMPLE --yes --format json` a fresh JVM each time, the two kinds alternating so that other
# load on the machine falls on both. Prints medians of:
#   cluster ready  from the command's start (its JVM included) until the run prints the kubeconfig line, which
#                  comes once the cluster answers and the node agent has started (envtest: also the control
#                  plane's own "ready after" time, from its first process)
#   pod Running    from the pod's creation until its container runs with postStart done (the report's runningMs)
#   wall           the whole command, teardown included
#   overhead       wall minus the pod's own life (created to gone, the report's goneMs): what the runner,
#                  its JVM and its cluster add to the hooks
# and `uptime` before and after. RUNS=N (default 5), EXAMPLE=file (default examples/overrun.yaml). envtest
# needs the binaries of scripts/kube-assets.sh (or KUBEBUILDER_ASSETS); without them the script stops.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${RUNS:-5}"
example="${EXAMPLE:-examples/overrun.yaml}"
./hooklens version >/dev/null   # builds the jar and its archive when missing
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $(( t / 1000 )); }
field() { sed -n "s/.*\"$1\" : \([0-9]*\).*/\1/p" "$2" | head -1; }

one() {  # one run of kind $1; appends "ready running wall overhead plane" to $tmp/$1
  local kind=$1 start end ready plane
  start=$(now_ms)
  # Exit code 1 is a verdict (overrun.yaml cuts its preStop off), not a failed measurement.
  { ./hooklens run "$example" --yes --cluster "$kind" --format json 2>&1 >"$tmp/json" || true; } |
    while IFS= read -r line; do echo "$(( $(now_ms) - start )) $line"; done >"$tmp/err"
  end=$(now_ms)
  if ! grep -q "\"target\" : \"$kind\"" "$tmp/json"; then
    echo "the $kind run did not run on $kind:" >&2
    cat "$tmp/err" "$tmp/json" >&2
    exit 1
  fi
  ready=$(grep -m1 'while it runs: kubectl' "$tmp/err" | cut -d' ' -f1)
  plane=$(sed -n 's/.*control plane ready after \([0-9.]*\) s.*/\1/p' "$tmp/err" | head -1)
  local running gone
  running=$(field runningMs "$tmp/json")
  gone=$(field goneMs "$tmp/json")
  echo "$ready $running $(( end - start )) $(( end - start - gone )) ${plane:-0}" >>"$tmp/$kind"
}

echo "before: $(uptime)"
for _ in $(seq "$runs"); do
  one embedded
  one envtest
done
echo "after:  $(uptime)"
col() { cut -d' ' -f"$1" "$tmp/$2" | median; }
echo "runs per kind: $runs, $example"
printf '%-9s %14s %20s %12s %10s %12s\n' "" "cluster ready" "control plane ready" "pod Running" "wall" "overhead"
for kind in embedded envtest; do
  plane="—"
  [ "$kind" = envtest ] && plane="$(col 5 "$kind") s"
  printf '%-9s %11s ms %20s %9s ms %7s ms %9s ms\n' "$kind" "$(col 1 "$kind")" "$plane" "$(col 2 "$kind")" \
    "$(col 3 "$kind")" "$(col 4 "$kind")"
done
