#!/usr/bin/env bash
# Chart lint against the real `helm template`, on the same charts and values, process start included for both:
# for each chart, `./hooklens lint --jobs 1 CHART` (render, rules, mapping) paired with what a user runs to see
# the same renders with Helm alone, `helm template` once for each values set Hooklens renders (values.yaml, then
# each ci/*-values.yaml, as chart-testing does). Pairs alternate A B, B A; prints each chart's times and ratio,
# the totals and the median ratio, with the load average. Then the whole folder as one run of each side:
# `./hooklens lint --jobs 1 DIR` and the default (one job per processor) against the loop of helm templates.
# HELM names the helm binary; without it, the one scripts/kube-assets.sh built (it builds one from Helm's Go
# module when asked). DIR defaults to the 100 charts of $HOOKLENS_CORPUS (docs/performance.md).
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.."
dir="${1:-${HOOKLENS_CORPUS:?set HOOKLENS_CORPUS to the corpus folder, or name a directory}/charts}"
helm="${HELM:-}"
if [ -z "$helm" ]; then
  assets=$(bash scripts/kube-assets.sh --check) || {
    echo "helm-template: no helm binary; set HELM, or build one with scripts/kube-assets.sh" >&2
    exit 2
  }
  helm="$assets/helm"
fi
./hooklens version >/dev/null   # builds the jar and its archive when missing

. benchmarks/timing.sh

# helm template for each values set of a chart, one process each, as a user would run them.
helm_sets() {
  local chart=$1 f
  "$helm" template release "$chart" >/dev/null 2>&1 || true
  for f in "$chart"/ci/*-values.yaml; do
    [ -f "$f" ] && { "$helm" template release "$chart" -f "$f" >/dev/null 2>&1 || true; }
  done
}
helm_all() {
  local c
  for c in "$dir"/*/; do
    [ -f "$c/Chart.yaml" ] && helm_sets "${c%/}"
  done
}

echo "helm:           $("$helm" version --short 2>/dev/null || "$helm" version)"
echo "directory:      $dir"
echo "processors:     $(nproc)"
echo "load before:    $(cut -d' ' -f1-3 /proc/loadavg)"
ratios=() total_h=0 total_helm=0 i=0
for c in "$dir"/*/; do
  c=${c%/}
  [ -f "$c/Chart.yaml" ] || continue
  i=$((i + 1))
  if (( i % 2 )); then
    h=$(ms ./hooklens lint --jobs 1 "$c")
    g=$(ms helm_sets "$c")
  else
    g=$(ms helm_sets "$c")
    h=$(ms ./hooklens lint --jobs 1 "$c")
  fi
  sets=1
  for f in "$c"/ci/*-values.yaml; do [ -f "$f" ] && sets=$((sets + 1)); done
  total_h=$((total_h + h)) total_helm=$((total_helm + g))
  ratio=$(awk -v a="$h" -v b="$g" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$ratio")
  printf '%-40s %2d sets  hooklens %6d ms  helm %6d ms  ratio %s\n' "$(basename "$c")" "$sets" "$h" "$g" "$ratio"
done
printf '%s\n' "${ratios[@]}" | sort -g | awk -v h="$total_h" -v g="$total_helm" '{a[NR]=$1} END {
  printf "per chart, one process each: total hooklens %d ms, helm %d ms, ratio %.2f; median chart ratio %s (min %s, max %s)\n",
    h, g, h / g, a[int((NR+1)/2)], a[1], a[NR] }'
echo "load:           $(cut -d' ' -f1-3 /proc/loadavg)"
one=$(ms ./hooklens lint --jobs 1 "$dir")
loop=$(ms helm_all)
all=$(ms ./hooklens lint "$dir")
awk -v o="$one" -v a="$all" -v l="$loop" 'BEGIN {
  printf "whole folder: hooklens --jobs 1 %d ms, hooklens default %d ms, helm template loop %d ms\n", o, a, l
  printf "ratio hooklens --jobs 1 / helm %.2f; default / helm %.2f (target <= 1.0)\n", o / l, a / l }'
echo "load after:     $(cut -d' ' -f1-3 /proc/loadavg)"
