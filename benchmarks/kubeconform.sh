#!/usr/bin/env bash
# Plain-manifest lint against kubeconform, per core: the manifests and OpenShift files of $HOOKLENS_CORPUS,
# `./hooklens lint --jobs 1 FILES...` against kubeconform v0.8.0 with one worker (-n 1) and a local strict schema
# folder generated from the fabric8 model (KubeconformSchemas), both pinned to processor 0, process start
# included, as pairs A B, B A, ... Prints resources per second per core for each, the median ratio and the load.
# kubeconform is built from its Go module into ~/.cache/hooklens/kubeconform, never into the repository.
# COPIES=N lints the files N times in one process, to show throughput past start-up.
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.."
corpus="${HOOKLENS_CORPUS:?set HOOKLENS_CORPUS to the corpus folder}"
pairs="${PAIRS:-5}" copies="${COPIES:-1}" version=v0.8.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/hooklens/kubeconform"
kc="$cache/kubeconform-$version"
if [ ! -x "$kc" ]; then
  command -v go >/dev/null || { echo "kubeconform: Go is needed to build kubeconform" >&2; exit 2; }
  mkdir -p "$cache/src"
  (cd "$cache/src" && printf 'module hooklens.local/kubeconform\n\ngo 1.22\n' > go.mod \
    && go get "github.com/yannh/kubeconform/cmd/kubeconform@$version" \
    && go build -o "$kc" github.com/yannh/kubeconform/cmd/kubeconform) >&2
fi
[ -d benchmarks/target/classes/io/hooklens/bench ] || mvn -B -q -o -DskipTests -pl benchmarks -am package >&2
schemas="$cache/schemas"
rm -rf "$schemas"
java -cp benchmarks/target/benchmarks.jar io.hooklens.bench.lsp.KubeconformSchemas "$schemas"
./hooklens version >/dev/null   # builds the jar and its archive when missing

files=()
for i in $(seq "$copies"); do
  while IFS= read -r f; do files+=("$f"); done < <(find "$corpus/manifests" "$corpus/openshift" -type f \
    \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | sort)
done
# Kinds with no model class here (custom resources, OpenShift's API) are skipped by kubeconform, not failed.
skip=RayService,RayCluster,RayJob,DeploymentConfig,Template,Route,SecurityContextConstraints
kubeconform() {
  taskset -c 0 "$kc" -n 1 -strict -summary -skip "$skip" \
    -schema-location "$schemas/{{.ResourceKind}}{{.KindSuffix}}.json" "${files[@]}"
}
hooklens() { taskset -c 0 ./hooklens lint --jobs 1 "${files[@]}"; }
# Resources are the documents with a kind, as kubeconform's summary counts them (skipped ones included).
resources=$(kubeconform 2>/dev/null | sed -n 's/^Summary: \([0-9]*\) resources.*/\1/p' || true)
summary=$(kubeconform 2>/dev/null | grep '^Summary' || true)
hooklens >/dev/null 2>&1 || true   # warms the file cache and the archive

ms() { # wall milliseconds of one run, its output dropped
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
echo "kubeconform:    $version, $summary"
echo "input:          ${#files[@]} files ($copies copies), $resources resources, pinned to processor 0"
echo "load before:    $(cut -d' ' -f1-3 /proc/loadavg)"
ratios=() hs=() ks=()
for i in $(seq "$pairs"); do
  if (( i % 2 )); then h=$(ms hooklens); k=$(ms kubeconform); else k=$(ms kubeconform); h=$(ms hooklens); fi
  hs+=("$h") ks+=("$k")
  ratios+=("$(awk -v h="$h" -v k="$k" 'BEGIN { printf "%.2f", k / h }')")
  printf 'pair %d: hooklens %6d ms, kubeconform %6d ms (load %s)\n' "$i" "$h" "$k" "$(cut -d' ' -f1 /proc/loadavg)"
done
echo "load after:     $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END { print a[int((NR+1)/2)] }'; }
h=$(median "${hs[@]}") k=$(median "${ks[@]}") r=$(median "${ratios[@]}")
awk -v n="$resources" -v h="$h" -v k="$k" -v r="$r" 'BEGIN {
  printf "median: hooklens %d ms = %.0f resources/s per core; kubeconform %d ms = %.0f resources/s per core\n",
    h, n * 1000 / h, k, n * 1000 / k
  printf "median pair ratio hooklens/kubeconform throughput: %s (target >= 1.0)\n", r }'
