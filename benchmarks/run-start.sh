#!/usr/bin/env bash
# Cold start of the embedded cluster: a fresh JVM per run (io.hooklens.bench.ClusterStart), with and without
# the launcher's class-data-sharing archive, next to a bare JVM (`java -version`) measured in the same run.
# Prints medians: the time from main until the cluster answered its first request, the wall time, and the
# CPU time used until the first answer (the least disturbed by other load on the machine).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${RUNS:-9}"
./hooklens version >/dev/null   # builds the jar and its archive when missing
[ -d benchmarks/target/classes/io/hooklens/bench ] || mvn -B -q -DskipTests package >&2
cp="language-server/target/hooklens.jar:benchmarks/target/classes"
cds=language-server/target/hooklens.jsa
# The launcher's options: the archive is only used with the same ones.
opts=(-XX:+UseSerialGC -Xss4m -XX:TieredStopAtLevel=1 -Xlog:cds=off -Xlog:cds+dynamic=off)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() {  # prints "first-request-ms wall-ms cpu-ms" per run
  for _ in $(seq "$runs"); do
    local start end line
    start=$(date +%s%N)
    line=$("$@" 2>/dev/null)
    end=$(date +%s%N)
    echo "$(sed -n 's/.*first-request \([0-9]*\) ms.*/\1/p' <<<"$line") $(( (end - start) / 1000000 ))" \
      "$(sed -n 's/.*cpu \([0-9]*\) ms.*/\1/p' <<<"$line")"
  done
}

with=$(measure java "${opts[@]}" "-XX:SharedArchiveFile=$cds" -cp "$cp" io.hooklens.bench.ClusterStart)
without=$(measure java "${opts[@]}" -cp "$cp" io.hooklens.bench.ClusterStart)
jvm=$(for _ in $(seq "$runs"); do s=$(date +%s%N); java "${opts[@]}" -version >/dev/null 2>&1; e=$(date +%s%N);
  echo $(( (e - s) / 1000000 )); done | median)
echo "runs per command:                      $runs"
report() {
  echo "$(cut -d' ' -f1 <<<"$1" | median) ms to first answer, $(cut -d' ' -f2 <<<"$1" | median) ms wall," \
    "$(cut -d' ' -f3 <<<"$1" | median) ms CPU"
}
echo "cluster start, with the archive:       $(report "$with") (target <= 1000 ms to first answer)"
echo "cluster start, without the archive:    $(report "$without")"
echo "bare JVM (java -version):              $jvm ms wall"
