#!/usr/bin/env bash
# Builds the real control-plane binaries the test tiers run (etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler, kwok; versitygw, an S3-compatible server) from published Go modules, into a cache
# outside the repository keyed by component, version, wrapper template, Go version and flags.
#
#   tools/testbin/build.sh [etcd] [kubernetes] [kwok]   build what is missing (default: these three)
#   tools/testbin/build.sh kubernetes-node              kubelet + kube-proxy for the real node (tools/node/)
#   tools/testbin/build.sh kubernetes-oldest            the control plane at K8S_OLDEST_VERSION, for the
#                                                       cluster-oldest tier (the oldest supported minor)
#   tools/testbin/build.sh versitygw                    the S3-compatible server of the engine tier's data pipelines
#   tools/testbin/build.sh --paths                      print where each component lives, build nothing
#
# Idempotent (a finished component has a .complete marker), safe against concurrent runs
# (flock on the cache), and every failure names the step that broke.
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
if ! command -v go >/dev/null 2>&1; then
  # Exit code 3 = cannot be obtained on this machine (tools/test.sh reports the tier BLOCKED).
  echo "[testbin] the Go toolchain (go >= 1.26) is not on PATH; it is needed to build the control-plane binaries" >&2
  exit 3
fi
# shellcheck source=../lib/go-build.sh
source "$HERE/../lib/go-build.sh"
go_build_init testbin
TESTBIN="$ROOT"
WORK="$CACHE_ROOT/build"
# Free space needed for a cold build: module cache ~1.4 GB + build cache ~3.5 GB + output ~0.35 GB.
MIN_FREE_MB="${SEATUNNEL_APP_TESTBIN_MIN_FREE_MB:-6000}"



# The cache key: anything that changes the produced binary changes the directory name.
key_for() {
  local component="$1" version="$2" template="$3" flags="$4"
  printf '%s\n%s\n%s\n%s\n%s\n' "$component" "$version" "$(cat "$template")" "$GO_VERSION" "$flags" | sha
}

k8s_ldflags() {
  local v="$K8S_VERSION" minor
  minor="$(echo "$v" | cut -d. -f2)"
  local date; date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  local out="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    out+=" -X $pkg.gitVersion=$v -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    out+=" -X $pkg.gitTreeState=clean -X $pkg.gitCommit=module-$v -X $pkg.buildDate=$date"
  done
  echo "$out"
}
K8S_FLAGS_ID="tags=selinux,notest trimpath stamped"
ETCD_FLAGS_ID="trimpath -s -w"
KWOK_FLAGS_ID="trimpath -s -w stages"

dir_kubernetes() { echo "$TESTBIN/kubernetes-$K8S_VERSION-$(key_for kubernetes "$K8S_VERSION" "$HERE/k8s/go.mod.in" "$K8S_FLAGS_ID")"; }
dir_etcd() { echo "$TESTBIN/etcd-$ETCD_VERSION-$(key_for etcd "$ETCD_VERSION" "$HERE/etcd/go.mod.in" "$ETCD_FLAGS_ID")"; }
K8S_NODE_BINARIES=(kubelet kube-proxy kubectl)
dir_kubernetes_node() { echo "$TESTBIN/kubernetes-node-$K8S_VERSION-$(key_for kubernetes-node "$K8S_VERSION" "$HERE/k8s-node/go.mod.in" "$K8S_FLAGS_ID ${K8S_NODE_BINARIES[*]}")"; }
# Same wrapper, flags and stamps as `kubernetes`, at the oldest supported version; its own directory
# name (the component is part of the key) so the two never share a cache entry.
dir_kubernetes_oldest() { K8S_VERSION="$K8S_OLDEST_VERSION" _dir_kubernetes_oldest; }
_dir_kubernetes_oldest() { echo "$TESTBIN/kubernetes-$K8S_VERSION-$(key_for kubernetes-oldest "$K8S_VERSION" "$HERE/k8s/go.mod.in" "$K8S_FLAGS_ID")"; }
dir_kwok() { echo "$TESTBIN/kwok-$KWOK_VERSION-$(key_for kwok "$KWOK_VERSION" "$HERE/kwok/go.mod.in" "$KWOK_FLAGS_ID")"; }
VERSITYGW_FLAGS_ID="trimpath -s -w stamped"
dir_versitygw() { echo "$TESTBIN/versitygw-$VERSITYGW_VERSION-$(key_for versitygw "$VERSITYGW_VERSION" "$HERE/versitygw/go.mod.in" "$VERSITYGW_FLAGS_ID")"; }

print_paths() {
  local c d
  for c in etcd kubernetes kwok kubernetes-node kubernetes-oldest versitygw; do
    d="$(dir_${c//-/_})"
    if [[ -f "$d/.complete" ]]; then echo "$c=$d"; else echo "$c=$d (missing)"; fi
  done
}

# Prepares a wrapper module in $WORK/<name> from a template, with the version substituted.
prepare_module() {
  local name="$1" template="$2" placeholder="$3" version="$4"
  local mod="$WORK/$name"
  rm -rf "$mod"; mkdir -p "$mod"
  sed "s|@${placeholder}@|${version}|" "$template" > "$mod/go.mod"
  echo "$mod"
}


# Prepares a wrapper module for k8s.io/kubernetes from a template: `go install` refuses the module
# (replace => ./staging/...), so every staging replace line of its downloaded go.mod becomes a
# replace to the published staging module of the same release. Prints the module directory.
prepare_k8s_module() {
  local name="$1" template="$2" label="$3"
  step "$label: download k8s.io/kubernetes@$K8S_VERSION module metadata"
  local gomod
  gomod="$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -s "$gomod" ]] || { log "no go.mod path from go mod download"; false; }
  step "$label: generate the staging-module replace list from $gomod"
  local mod; mod="$(prepare_module "$name" "$template" K8S_VERSION "$K8S_VERSION")"
  local staging_version="v0.${K8S_VERSION#v1.}"
  local count
  count="$(grep -cE '^[[:space:]]*k8s\.io/[^[:space:]]+ => \./staging/' "$gomod")"
  [[ "$count" -gt 0 ]] || { log "found no staging replace lines in $gomod"; false; }
  {
    echo
    echo "// generated from k8s.io/kubernetes@$K8S_VERSION go.mod: $count staging modules"
    echo "replace ("
    grep -E '^[[:space:]]*k8s\.io/[^[:space:]]+ => \./staging/' "$gomod" \
      | awk -v v="$staging_version" '{ printf "\t%s => %s %s\n", $1, $1, v }'
    echo ")"
  } >> "$mod/go.mod"
  log "$label: $count staging modules replaced with $staging_version"
  echo "$mod"
}

# Builds Kubernetes commands into <out>/bin from a prepared wrapper module and checks that each
# prints the stamped version.
compile_k8s() {
  local label="$1" mod="$2" out="$3"; shift 3
  local pkgs=() b
  for b in "$@"; do pkgs+=("k8s.io/kubernetes/cmd/$b"); done
  go_tidy_build "$mod" "$out" "$label: go mod tidy (downloads the module graph; several minutes when cold)" \
    "$label: compile $* (minutes when cold on 2 cores)" \
    -tags selinux,notest -ldflags "$(k8s_ldflags)" -o "$out.tmp/bin/" "${pkgs[@]}"
  step "$label: verify the version stamps"
  local v
  for b in "$@"; do
    # kubectl has no --version; its client version is the same stamp.
    if [[ "$b" == kubectl ]]; then v="$("$out.tmp/bin/$b" version --client | sed -n 's/^Client Version: /Kubernetes /p')"
    else v="$("$out.tmp/bin/$b" --version)"; fi
    [[ "$v" == "Kubernetes $K8S_VERSION" ]] || { log "$b --version printed '$v'"; false; }
  done
}

build_kubernetes() {
  local out; out="$(dir_kubernetes)"
  begin_component "$out" "kubernetes $K8S_VERSION" || return 0
  local mod; mod="$(prepare_k8s_module k8s "$HERE/k8s/go.mod.in" kubernetes)"
  compile_k8s kubernetes "$mod" "$out" kube-apiserver kube-controller-manager kube-scheduler
  finish_go_component "$mod" "$out"
}

# kubelet, kube-proxy and kubectl for the real-node tier (tools/node/build.sh asks for them); not built
# by default, since the tiers without a real node do not need them.
build_kubernetes_node() {
  local out; out="$(dir_kubernetes_node)"
  begin_component "$out" "kubernetes-node $K8S_VERSION" || return 0
  local mod; mod="$(prepare_k8s_module k8s-node "$HERE/k8s-node/go.mod.in" kubernetes-node)"
  compile_k8s kubernetes-node "$mod" "$out" "${K8S_NODE_BINARIES[@]}"
  finish_go_component "$mod" "$out"
}

# The control plane of the oldest supported minor (K8S_OLDEST_VERSION): the same three commands,
# built the same way, for the cluster-oldest tier (tools/test.sh).
build_kubernetes_oldest() {
  local K8S_VERSION="$K8S_OLDEST_VERSION"
  local out; out="$(_dir_kubernetes_oldest)"
  begin_component "$out" "kubernetes $K8S_VERSION (oldest)" || return 0
  local mod; mod="$(prepare_k8s_module k8s-oldest "$HERE/k8s/go.mod.in" kubernetes-oldest)"
  compile_k8s kubernetes-oldest "$mod" "$out" kube-apiserver kube-controller-manager kube-scheduler
  finish_go_component "$mod" "$out"
}

# etcd, kwok and versitygw: one command each, built with -ldflags "-s -w" from a wrapper module whose
# go.mod.in has the placeholder <NAME>_VERSION. Arguments: name, version, module (for the step), package,
# what checks or completes the fresh build (given the output directory's .tmp), and more -ldflags.
build_wrapped() {
  local name="$1" version="$2" module="$3" package="$4" complete="$5" ldflags="-s -w${6:+ $6}"
  local out; out="$("dir_$name")"
  begin_component "$out" "$name $version" || return 0
  step "$name: prepare wrapper module for $module@$version"
  local mod; mod="$(prepare_module "$name" "$HERE/$name/go.mod.in" "${name^^}_VERSION" "$version")"
  go_tidy_build "$mod" "$out" "$name: go mod tidy" "$name: compile" -ldflags "$ldflags" -o "$out.tmp/bin/$name" "$package"
  "$complete" "$out.tmp"
  finish_go_component "$mod" "$out"
}

build_etcd() { build_wrapped etcd "$ETCD_VERSION" go.etcd.io/etcd/server/v3 go.etcd.io/etcd/server/v3 verify_etcd; }
verify_etcd() {
  step "etcd: verify the version"
  # Read whole: `| grep -q` stops reading at the first line, and etcd's next write then dies of SIGPIPE.
  local v; v="$("$1/bin/etcd" --version)"
  [[ "$v" == *"etcd Version: ${ETCD_VERSION#v}"* ]] || { log "unexpected etcd --version: $v"; false; }
}

build_kwok() { build_wrapped kwok "$KWOK_VERSION" sigs.k8s.io/kwok sigs.k8s.io/kwok/cmd/kwok copy_kwok_stages; }
copy_kwok_stages() {
  local tmp="$1"
  step "kwok: copy the default stages from the module cache"
  local src; src="$(go env GOMODCACHE)/sigs.k8s.io/kwok@$KWOK_VERSION/kustomize/stage"
  [[ -d "$src" ]] || { log "stage directory $src not found"; false; }
  mkdir -p "$tmp/stages"
  local f
  for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
           pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
    [[ -f "$src/$f" ]] || { log "stage $f missing in $src"; false; }
    cp "$src/$f" "$tmp/stages/$(basename "$f")"
  done
  chmod -R u+w "$tmp/stages"
}

build_versitygw() {
  # its --version reads what the release build stamps (main.Version, main.Build)
  build_wrapped versitygw "$VERSITYGW_VERSION" github.com/versity/versitygw github.com/versity/versitygw/cmd/versitygw \
    verify_versitygw "-X main.Version=$VERSITYGW_VERSION -X main.Build=module-$VERSITYGW_VERSION"
}
verify_versitygw() {
  step "versitygw: verify the version"
  local v; v="$("$1/bin/versitygw" --version 2>&1)"
  [[ "$v" == *"${VERSITYGW_VERSION#v}"* ]] || { log "unexpected versitygw --version: $v"; false; }
}

# Fails early, naming the directories, when a build is needed and the disk is nearly full (a Go
# build that runs out of space mid-way fails with confusing errors).
check_disk() {
  local c need=0
  for c in "$@"; do [[ -f "$(dir_${c//-/_})/.complete" ]] || need=1; done
  [[ $need -eq 1 ]] || return 0
  step "check free disk space (need ${MIN_FREE_MB} MB; override with SEATUNNEL_APP_TESTBIN_MIN_FREE_MB)"
  local d free
  for d in "$TESTBIN" "$(go env GOMODCACHE)" "$(go env GOCACHE)"; do
    mkdir -p "$d"
    free="$(df -Pm "$d" | awk 'NR==2 {print $4}')"
    if [[ "$free" -lt "$MIN_FREE_MB" ]]; then
      log "only ${free} MB free on the filesystem of $d; a cold build needs about ${MIN_FREE_MB} MB"
      false
    fi
  done
}

main() {
  if [[ "${1:-}" == "--paths" ]]; then print_paths; return; fi
  local components=("$@")
  [[ ${#components[@]} -gt 0 ]] || components=(etcd kubernetes kwok)
  local c
  for c in "${components[@]}"; do
    case "$c" in
      etcd|kubernetes|kwok|kubernetes-node|kubernetes-oldest|versitygw) ;;
      *) CURRENT_STEP="arguments"; log "unknown component '$c' (expected etcd, kubernetes, kwok, kubernetes-node, kubernetes-oldest or versitygw)"; exit 2 ;;
    esac
  done
  # Complete components are published whole (renamed into place), so reading them needs no lock: a
  # tier whose components are built does not wait behind another run's build of something else
  # (the test run builds the cluster-oldest control plane in the background while the engine tier runs).
  local missing=0
  for c in "${components[@]}"; do [[ -f "$(dir_${c//-/_})/.complete" ]] || missing=1; done
  if [[ $missing -eq 0 ]]; then
    for c in "${components[@]}"; do log "$c cached at $(dir_${c//-/_})"; done
    print_paths
    return
  fi
  mkdir -p "$TESTBIN" "$WORK"
  hold_lock "$TESTBIN/.lock"
  check_disk "${components[@]}"
  for c in "${components[@]}"; do "build_${c//-/_}"; done
  print_paths
}

main "$@"
