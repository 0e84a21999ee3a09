#!/usr/bin/env bash
# Cold-start harness: `./hooklens lint FILE` (a new JVM each run, with the launcher's archive: an
# ahead-of-time cache on Java 25 and later, a class-data-sharing archive before) against a bare JVM
# (`java -version`) and the same lint without any archive, as paired runs (A, B, A, B, ...): each
# ratio is taken within its pair and the median of the ratios is printed, with the load average.
# The JVM is the launcher's: JAVA_HOME's, else the one on the PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${RUNS:-15}"
file="${1:-examples/good.yaml}"
[ -f "$file" ] || { echo "cold-start: no file $file" >&2; exit 2; }
./hooklens version >/dev/null   # builds the jar and its archive when missing
jar=language-server/target/hooklens.jar
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

. benchmarks/timing.sh
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
lint=() bare=() plain=() r_bare=() r_plain=()
for _ in $(seq "$runs"); do
  l=$(ms ./hooklens lint "$file")
  b=$(ms "$java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -version)
  p=$(ms "$java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:off -jar "$jar" lint "$file")
  lint+=("$l") bare+=("$b") plain+=("$p")
  r_bare+=("$(awk -v a="$l" -v b="$b" 'BEGIN {print a / b}')")
  r_plain+=("$(awk -v a="$l" -v b="$p" 'BEGIN {print a / b}')")
done
echo "java:                         $("$java" -version 2>&1 | head -1)"
echo "runs per command:             $runs (paired), load average $load_before -> $(cut -d' ' -f1-3 /proc/loadavg)"
echo "./hooklens lint $file: $(printf '%s\n' "${lint[@]}" | median) ms"
echo "bare JVM (java -version):     $(printf '%s\n' "${bare[@]}" | median) ms"
echo "same lint without an archive: $(printf '%s\n' "${plain[@]}" | median) ms"
printf 'ratio lint / bare JVM:        %.2f (median of pairs; target <= 3)\n' "$(printf '%s\n' "${r_bare[@]}" | median)"
printf 'ratio lint / no archive:      %.2f (median of pairs)\n' "$(printf '%s\n' "${r_plain[@]}" | median)"
