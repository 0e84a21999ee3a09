#!/usr/bin/env bash
# Cold-start harness: the median wall time of `./hooklens lint FILE` (a new JVM each run, with the
# launcher's class-data-sharing archive) next to two baselines measured in the same run: a bare JVM
# (`java -version`) and the same lint without the archive.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${RUNS:-15}"
file="${1:-examples/web.yaml}"
./hooklens version >/dev/null   # builds the jar and its archive when missing
./hooklens version >/dev/null
jar=language-server/target/hooklens.jar

median_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

lint=$(median_ms ./hooklens lint "$file")
nocds=$(median_ms java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:off -jar "$jar" lint "$file")
jvm=$(median_ms java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -version)
echo "runs per command:            $runs"
echo "./hooklens lint $file: ${lint} ms (target <= 600 ms)"
echo "same lint without CDS:       ${nocds} ms"
echo "bare JVM (java -version):    ${jvm} ms"
awk -v a="$lint" -v b="$jvm" -v c="$nocds" 'BEGIN {
  printf "ratio lint / bare JVM:       %.2f\nratio lint / lint w/o CDS:   %.2f\n", a / b, a / c }'
