#!/usr/bin/env bash
# All cores: `./hooklens lint DIR` with --jobs 1 against the default (one job per processor) in the same run,
# as pairs A B, B A, A B, ... so that a machine whose speed drifts weighs on both alike; prints each pair's
# times and ratio, the median ratio, the load average before and after, and whether both runs of a pair
# ended with the same exit code. DIR defaults to the 100 charts of $HOOKLENS_CORPUS (docs/performance.md).
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.."
pairs="${PAIRS:-5}"
dir="${1:-${HOOKLENS_CORPUS:?set HOOKLENS_CORPUS to the corpus folder, or name a directory}/charts}"
./hooklens version >/dev/null   # builds the jar and its archive when missing
./hooklens lint --jobs 1 "$dir" >/dev/null 2>&1 || true   # warms the file cache and the archive

# Prints the wall time of one lint in milliseconds, then its exit code.
timed() {
  local start end code=0
  start=$(date +%s%N)
  ./hooklens lint "$@" "$dir" >/dev/null 2>&1 || code=$?
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000000 )) $code"
}

echo "directory:      $dir"
echo "processors:     $(nproc)"
echo "load before:    $(cut -d' ' -f1-3 /proc/loadavg)"
ratios=()
for i in $(seq "$pairs"); do
  if (( i % 2 )); then
    read -r one one_code < <(timed --jobs 1)
    read -r all all_code < <(timed)
  else
    read -r all all_code < <(timed)
    read -r one one_code < <(timed --jobs 1)
  fi
  same=$([ "$one_code" = "$all_code" ] && echo "same exit code $one_code" || echo "EXIT CODES DIFFER: $one_code, $all_code")
  ratio=$(awk -v a="$one" -v b="$all" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$ratio")
  printf 'pair %d: --jobs 1 %6d ms, default %6d ms, ratio %s (%s; load %s)\n' "$i" "$one" "$all" "$ratio" "$same" \
    "$(cut -d' ' -f1 /proc/loadavg)"
done
echo "load after:     $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {
  printf "median ratio --jobs 1 / default: %s (min %s, max %s; target >= 1.8 on 2 cores)\n", a[int((NR+1)/2)], a[1], a[NR] }'
