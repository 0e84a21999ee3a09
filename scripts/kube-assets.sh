#!/usr/bin/env bash
# Prints a folder holding etcd, kube-apiserver, kube-controller-manager and kube-scheduler of one pinned
# Kubernetes release, building them from their Go modules the first time (about 20-40 minutes on two cores,
# 3 GB of Go build cache) and reusing them afterwards (seconds). The folder is what KUBEBUILDER_ASSETS or
# `hooklens run --kube-assets` takes.
#   scripts/kube-assets.sh            build if missing, then print the folder
#   scripts/kube-assets.sh --check    print the folder if it is complete, else exit 1 without building
# HOOKLENS_KUBE_CACHE moves the cache (default ~/.cache/hooklens/kube). Needs Go (>= the release's go line)
# and the Go module proxy. Nothing is written inside the repository.
set -euo pipefail

KUBE_VERSION=1.36.3
ETCD_VERSION=3.6.8 # the etcd client kube-apiserver 1.36.3 is built against
HELM_VERSION=3.22.0

cache="${HOOKLENS_KUBE_CACHE:-$HOME/.cache/hooklens/kube}"
dest="$cache/v$KUBE_VERSION"
binaries=(etcd kube-apiserver kube-controller-manager kube-scheduler helm)

complete() {
  for b in "${binaries[@]}"; do [ -x "$dest/$b" ] || return 1; done
}

case "${1:-}" in
  --check) complete && { echo "$dest"; exit 0; }; exit 1 ;;
  -h|--help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "kube-assets: unknown argument $1" >&2; exit 2 ;;
esac

if complete; then echo "$dest"; exit 0; fi
command -v go >/dev/null || { echo "kube-assets: Go is needed to build the control plane (apt-get install golang-go)" >&2; exit 2; }

work="$cache/src-v$KUBE_VERSION"
mkdir -p "$work" "$dest"
log() { echo "kube-assets: $*" >&2; }

# k8s.io/kubernetes replaces its staging modules with folders of its own tree; a module of ours requires it
# and points each staging module at its published v0.N.M instead. The list comes from the release's go.mod.
kube_mod="$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@v$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')"
staging_version="v0.${KUBE_VERSION#1.}"
go_line="$(sed -n 's/^go //p' "$kube_mod")"
{
  echo "module hooklens.local/kube-assets"
  echo
  echo "go $go_line"
  echo
  echo "require k8s.io/kubernetes v$KUBE_VERSION"
  echo
  echo "replace ("
  sed -n 's#^\t\(k8s.io/[a-z-]*\) => ./staging/.*#\t\1 => \1 '"$staging_version"'#p' "$kube_mod"
  echo ")"
} > "$work/go.mod"

main_of() { # folder, import path, constructor
  mkdir -p "$work/cmd/$1"
  cat > "$work/cmd/$1/main.go" <<EOF
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"$2"
)

func main() { os.Exit(cli.Run(app.$3())) }
EOF
}
main_of kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver/app NewAPIServerCommand
main_of kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager/app NewControllerManagerCommand
main_of kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler/app NewSchedulerCommand

version_flags="-s -w -X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${KUBE_VERSION#1.} -X k8s.io/component-base/version/verflag.programName=kubernetes"
version_flags="$(echo "$version_flags" | sed 's/gitMinor=\([0-9]*\)\.[0-9]*/gitMinor=\1/')"
cd "$work"
log "resolving modules for Kubernetes v$KUBE_VERSION"
GOFLAGS=-mod=mod go mod tidy >&2
for b in kube-apiserver kube-controller-manager kube-scheduler; do
  [ -x "$dest/$b" ] && continue
  log "building $b v$KUBE_VERSION (the apiserver takes longest)"
  CGO_ENABLED=0 go build -trimpath -ldflags "$version_flags" -o "$dest/$b.tmp" "./cmd/$b" >&2
  mv "$dest/$b.tmp" "$dest/$b"
done

# etcd's and Helm's own go.mod files hold replace directives too, so `go install m@v` refuses them; a
# module of ours that requires the server module builds the same main package.
build_tool() { # name, module, version, package, ldflags
  local dir="$cache/src-$1-$3"
  [ -x "$dest/$1" ] && return 0
  mkdir -p "$dir"
  printf 'module hooklens.local/%s\n\ngo %s\n\nrequire %s v%s\n' "$1" "$go_line" "$2" "$3" > "$dir/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$4" > "$dir/tools.go"
  log "building $1 v$3"
  (cd "$dir" && GOFLAGS=-mod=mod go mod tidy >&2 && CGO_ENABLED=0 go build -trimpath -ldflags "$5" -o "$dest/$1.tmp" "$4" >&2)
  mv "$dest/$1.tmp" "$dest/$1"
}
build_tool etcd go.etcd.io/etcd/server/v3 "$ETCD_VERSION" go.etcd.io/etcd/server/v3 "-s -w"
build_tool helm helm.sh/helm/v3 "$HELM_VERSION" helm.sh/helm/v3/cmd/helm \
  "-s -w -X helm.sh/helm/v3/internal/version.version=v$HELM_VERSION"

complete || { log "the build ended without every binary in $dest"; exit 1; }
echo "$dest"
