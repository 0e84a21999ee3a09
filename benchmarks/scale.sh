#!/usr/bin/env bash
# Scale curve (docs/performance.md, "Scale"): `./hooklens lint DIR`, a new process each run as a user runs it,
# on generated folders of 1 to 10,000 manifests (ScaleCurve: Deployments with lifecycle hooks, Helm hook Jobs,
# a DeploymentConfig in one file of 20, a few planted problems), with the bare JVM (`java -version`) in the
# same rounds as the fixed-cost baseline; then the language server's memory with 50 to 5,000 open documents.
# Prints the tables with the load average before and after, writes the results and draws them as an SVG.
#   SIZES="1 10 100"  folder sizes (default 1 10 100 1000 10000)
#   DOCS="50 500"     open documents for the language server (default 50 500 5000; empty to skip)
#   RUNS=3            rounds; LARGE_RUNS=N caps the rounds of folders over 1,000 manifests
#   SVG=FILE          where the plot goes (default benchmarks/target/scale/scale.svg)
#   MVN_ARGS=-o       extra Maven arguments for the build
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.."
sizes="${SIZES:-1 10 100 1000 10000}"
docs="${DOCS-50 500 5000}"
runs="${RUNS:-3}"
large_runs="${LARGE_RUNS:-$runs}"
out=benchmarks/target/scale
svg="${SVG:-$out/scale.svg}"
# shellcheck disable=SC2086 # MVN_ARGS holds several arguments or none
mvn -B -q ${MVN_ARGS:-} -DskipTests -pl benchmarks -am package
./hooklens version >/dev/null   # makes the launcher's class archive when missing
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
bench() { "$java" -cp benchmarks/target/benchmarks.jar io.hooklens.bench.lsp.ScaleCurve "$@"; }

. benchmarks/timing.sh
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Prints the wall milliseconds, CPU milliseconds (user and system), peak resident kB and exit code of one run.
measure() {
  local wall
  if [ -x /usr/bin/time ]; then
    wall=$(ms /usr/bin/time -o "$work/stats" -f '%U %S %M %x' "$@")
  else
    wall=$(ms python3 -c 'import resource, subprocess, sys
code = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%f %f %d %d\n" % (r.ru_utime, r.ru_stime, r.ru_maxrss, code))' "$work/stats" "$@")
  fi
  # GNU time writes "Command exited with non-zero status" first when the command fails.
  tail -n 1 "$work/stats" | awk -v w="$wall" '{ printf "%d %d %d %d\n", w, ($1 + $2) * 1000, $3, $4 }'
}

for n in $sizes; do
  bench write "$work/$n" "$n"
done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
runs_file="$out/runs.tsv"
: > "$runs_file"
for round in $(seq "$runs"); do
  echo "baseline $round $(measure "$java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -version) $(cut -d' ' -f1 /proc/loadavg)" \
    >> "$runs_file"
  for n in $sizes; do
    if [ "$n" -gt 1000 ] && [ "$round" -gt "$large_runs" ]; then continue; fi
    echo "$n $round $(measure ./hooklens lint "$work/$n") $(cut -d' ' -f1 /proc/loadavg)" >> "$runs_file"
  done
done
load_after_lint=$(cut -d' ' -f1-3 /proc/loadavg)

results="$out/results.tsv"
{
  printf 'meta\tdate\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
  printf 'meta\tcommit\t%s%s\n' "$(git rev-parse --short HEAD)" "$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with changes)')"
  printf 'meta\tprocessors\t%s\n' "$(nproc)"
  printf 'meta\tjava\t%s\n' "$("$java" -version 2>&1 | head -1)"
  printf 'meta\tlint load\t%s -> %s\n' "$load_before" "$load_after_lint"
  for key in baseline $sizes; do
    mb=0
    [ "$key" = baseline ] || mb=$(find "$work/$key" -type f -printf '%s\n' | awk '{s += $1} END {printf "%.3f", s / 1e6}')
    rows=$(awk -v k="$key" '$1 == k' "$runs_file")
    printf 'lint\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$mb" \
      "$(cut -d' ' -f3 <<<"$rows" | median)" "$(cut -d' ' -f4 <<<"$rows" | median)" \
      "$(cut -d' ' -f5 <<<"$rows" | median)" "$(wc -l <<<"$rows")" "$(cut -d' ' -f6 <<<"$rows" | sort -u | paste -sd,)"
  done
} > "$results"

if [ -n "$docs" ]; then
  max=$(tr ' ' '\n' <<<"$docs" | sort -n | tail -1)
  bench write "$work/lsp" "$max"
  load_before_lsp=$(cut -d' ' -f1-3 /proc/loadavg)
  # shellcheck disable=SC2086 # one argument per document count
  bench lsp "$PWD" "$work/lsp" $docs | sed 's/^/lsp\t/' >> "$results"
  printf 'meta\tlsp load\t%s -> %s\n' "$load_before_lsp" "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$results"
fi

awk -F'\t' '$1 == "meta" { printf "%-11s %s\n", $2 ":", $3 }' "$results"
echo
echo "| manifests | YAML (MB) | wall (s) | CPU (s) | peak RSS (MB) | wall / bare JVM | wall per manifest added (ms) | CPU per manifest added (ms) | peak RSS per manifest added (kB) | runs | exit |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'\t' '$1 == "lint" {
  if ($2 == "baseline") { bw = $4; printf "| bare JVM (`java -version`) | | %.2f | %.2f | %.0f | 1.00 | | | | %d | %s |\n", $4 / 1000, $5 / 1000, $6 / 1024, $7, $8; next }
  if (n != "") added = sprintf("%.2f | %.2f | %.1f", ($4 - w) / ($2 - n), ($5 - c) / ($2 - n), ($6 - m) / ($2 - n))
  else added = " | | "
  printf "| %d | %.3f | %.2f | %.2f | %.0f | %.2f | %s | %d | %s |\n", $2, $3, $4 / 1000, $5 / 1000, $6 / 1024, $4 / bw, added, $7, $8
  n = $2; w = $4; c = $5; m = $6
}' "$results"
echo "(per manifest added: growth over the row before, divided by the manifests added; exit 1 means findings)"
if [ -n "$docs" ]; then
  echo
  echo "| open documents | text (MB) | all diagnosed (s) | peak RSS (MB) | RSS (MB) | RSS after GC (MB) | heap used after GC (MB) | RSS after GC per document (MB) | heap per document (kB) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '$1 == "lsp" {
    if (!idle) { printf "| 0 (idle, after GC) | | | | | %.0f | %.1f | | |\n", $5, $9; idle = 1 }
    printf "| %d | %.2f | %.1f | %.0f | %.0f | %.0f | %.1f | %.3f | %.1f |\n", $2, $3, $4, $6, $7, $8, $10, ($8 - $5) / $2, ($10 - $9) * 1024 / $2
  }' "$results"
  echo "(per document: over the same server idle)"
fi
python3 benchmarks/scale_plot.py "$results" "$svg"
echo
echo "results: $results; runs: $runs_file; plot: $svg"
