#!/usr/bin/env bash
# Makes everything the real node runs available (issue #14), cached outside the repository:
#   packages          Debian packages from the host's apt sources, installed only when missing:
#                     containerd, runc, CNI plugins (/usr/lib/cni), iptables, ipset, conntrack,
#                     socat, iproute2, mmdebstrap (for the image builds)
#   kubernetes-node   kubelet + kube-proxy, built by tools/testbin/build.sh from the control
#                     plane's k8s.io/kubernetes module with the same version stamps
#   kube-router       the NetworkPolicy enforcer (cmd/kube-router only)
#   coredns           the project's slim CoreDNS (coredns/main.go: only the plugins used)
#
#   tools/node/build.sh [packages] [kubernetes-node] [kube-router] [coredns]   build/install what is missing (default: all)
#   tools/node/build.sh --paths     print `name=/abs/path` per component (`... (missing)` when absent); changes nothing
#
# Idempotent (.complete markers, dpkg-query before apt-get), safe against concurrent runs
# (flock), every failure names the step that broke. Exit codes: 0 ready; 1 a step failed;
# 2 bad arguments; 3 cannot be obtained on this machine (not root, apt cannot install, no Go
# toolchain) — tools/test.sh then reports the tier BLOCKED with the printed reason.
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
TESTBIN_BUILD="$HERE/../testbin/build.sh"

# shellcheck source=../lib/go-build.sh
source "$HERE/../lib/go-build.sh"
# The packages need no Go toolchain; the Go components check for one when they are built.
go_build_init node go-optional
WORK="$ROOT/build"

# What the node uses from Debian packages: name|absolute path|package. The path is where
# Debian 12 puts it; the install step checks each one.
HOST_PARTS=(
  "containerd|/usr/bin/containerd|containerd"
  "containerd-shim-runc-v2|/usr/bin/containerd-shim-runc-v2|containerd"
  "ctr|/usr/bin/ctr|containerd"
  "runc|/usr/sbin/runc|runc"
  "cni|/usr/lib/cni|containernetworking-plugins"
  "iptables|/usr/sbin/iptables|iptables"
  "ipset|/usr/sbin/ipset|ipset"
  "conntrack|/usr/sbin/conntrack|conntrack"
  "socat|/usr/bin/socat|socat"
  "ip|/usr/bin/ip|iproute2"
  "mmdebstrap|/usr/bin/mmdebstrap|mmdebstrap"
)
# The CNI plugins the node's bridge network chains; all must be in the cni directory.
CNI_PLUGINS="bridge host-local loopback portmap"

KUBE_ROUTER_MODULE=github.com/cloudnativelabs/kube-router/v2
KUBE_ROUTER_LDFLAGS="-s -w -X $KUBE_ROUTER_MODULE/pkg/version.Version=$KUBE_ROUTER_VERSION -X $KUBE_ROUTER_MODULE/pkg/version.BuildDate=module"
COREDNS_LDFLAGS="-s -w -X github.com/coredns/coredns/coremain.GitCommit=module-$COREDNS_VERSION"

# The cache key: anything that changes the produced binary changes the directory name.
key_for() {
  local component="$1" version="$2" flags="$3"; shift 3
  { printf '%s\n%s\n%s\n%s\nCGO_ENABLED=%s\n' "$component" "$version" "$GO_VERSION" "$flags" "$CGO_ENABLED"; cat "$@"; } | sha
}
dir_kube_router() {
  echo "$ROOT/kube-router-$KUBE_ROUTER_VERSION-$(key_for kube-router "$KUBE_ROUTER_VERSION" "trimpath $KUBE_ROUTER_LDFLAGS" "$HERE/kube-router/go.mod.in")"
}
dir_coredns() {
  echo "$ROOT/coredns-$COREDNS_VERSION-$(key_for coredns "$COREDNS_VERSION $COREDNS_PLUGINS $COREDNS_PLUGINS_PULLED_IN" "trimpath $COREDNS_LDFLAGS" \
    "$HERE/coredns/go.mod.in" "$HERE/coredns/main.go")"
}
# kubelet + kube-proxy live in the testbin cache (same module and flags as the control plane).
# Without a Go toolchain testbin cannot name its directory; the part is then simply missing.
dir_kubernetes_node() {
  local line; line="$(bash "$TESTBIN_BUILD" --paths 2>/dev/null | grep '^kubernetes-node=' || true)"
  echo "${line#kubernetes-node=}" | grep . || echo "$CACHE_ROOT/testbin/kubernetes-node (missing)"
}

host_part_ok() {
  local path="$1" pkg="$2"
  [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null)" == ii* && -e "$path" ]]
}

print_paths() {
  local d c
  echo "kubernetes-node=$(dir_kubernetes_node)"
  for c in kube-router coredns; do
    d="$(dir_${c//-/_})"
    if [[ -f "$d/.complete" ]]; then echo "$c=$d"; else echo "$c=$d (missing)"; fi
  done
  local entry name path pkg
  for entry in "${HOST_PARTS[@]}"; do
    IFS='|' read -r name path pkg <<<"$entry"
    if host_part_ok "$path" "$pkg"; then echo "$name=$path"; else echo "$name=$path (missing)"; fi
  done
}

blocked() {
  log "BLOCKED: $*"
  echo "real node BLOCKED: $*"
  exit 3
}

# ---- Debian packages ------------------------------------------------------------------------

# Installs the missing packages without starting any service and without leaving a CNI network
# config behind: the harness runs its own containerd (own config and socket) and its own CNI
# config directory, and nothing of the host's configuration may change.
install_packages() {
  step "packages: check which of the node's Debian packages are installed (dpkg-query)"
  local missing=() p
  for p in $DEBIAN_PACKAGES; do
    [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" == ii* ]] || missing+=("$p")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    local t0=$SECONDS
    [[ "$(id -u)" -eq 0 ]] || blocked "Debian packages missing (${missing[*]}) and installing them needs root: run 'sudo bash $0 packages'"
    command -v apt-get >/dev/null || blocked "Debian packages missing (${missing[*]}) and there is no apt-get on this machine"
    mkdir -p "$WORK"
    local before_cni before_pids created_policy=""
    before_cni="$(find /etc/cni/net.d -type f 2>/dev/null | sort || true)"
    before_pids="$(pgrep -x containerd | sort || true)"
    # Debian's maintainer scripts start services through invoke-rc.d, which asks policy-rc.d;
    # 101 = "not allowed". Only added for this install when the machine has none.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
      printf '#!/bin/sh\n# temporary, added by seatunnel-app tools/node/build.sh during apt-get install\nexit 101\n' > /usr/sbin/policy-rc.d
      chmod 755 /usr/sbin/policy-rc.d
      created_policy=1
    fi
    local apt_opts=(-o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confold)
    step "packages: apt-get update (to install ${missing[*]})"
    if ! run_logged "$WORK/apt-update.log" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" update; then
      [[ -z "$created_policy" ]] || rm -f /usr/sbin/policy-rc.d
      blocked "apt-get update failed (log above, full log $WORK/apt-update.log); cannot install ${missing[*]}"
    fi
    step "packages: apt-get install --no-install-recommends ${missing[*]}"
    if ! run_logged "$WORK/apt-install.log" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" \
        install -y --no-install-recommends "${missing[@]}"; then
      [[ -z "$created_policy" ]] || rm -f /usr/sbin/policy-rc.d
      blocked "apt-get install ${missing[*]} failed (log above, full log $WORK/apt-install.log)"
    fi
    [[ -z "$created_policy" ]] || rm -f /usr/sbin/policy-rc.d
    step "packages: make sure the install started no containerd and left no CNI network config"
    local pid
    for pid in $(comm -13 <(echo "$before_pids") <(pgrep -x containerd | sort || true)); do
      log "packages: the install started containerd (pid $pid); stopping it (the harness runs its own)"
      kill "$pid" 2>/dev/null || true
    done
    local f
    while IFS= read -r f; do
      [[ -n "$f" ]] || continue
      log "packages: removing $f, a CNI network config the install added (the harness uses its own conf dir)"
      rm -f "$f"
    done < <(comm -13 <(echo "$before_cni") <(find /etc/cni/net.d -type f 2>/dev/null | sort || true))
    log "packages: installed ${missing[*]} in $((SECONDS - t0)) s"
  else
    log "packages: all installed ($DEBIAN_PACKAGES)"
  fi
  step "packages: check the node's host binaries and CNI plugins"
  local entry name path pkg
  for entry in "${HOST_PARTS[@]}"; do
    IFS='|' read -r name path pkg <<<"$entry"
    [[ -e "$path" ]] || { log "$name: expected $path (package $pkg) but it is not there"; false; }
  done
  for p in $CNI_PLUGINS; do
    [[ -x "/usr/lib/cni/$p" ]] || { log "CNI plugin /usr/lib/cni/$p missing (package containernetworking-plugins)"; false; }
  done
}

# ---- Go components --------------------------------------------------------------------------

# Prepares a wrapper module in $WORK/<name> from a template, with the versions substituted.
prepare_module() {
  local name="$1" template="$2"
  local mod="$WORK/$name"
  rm -rf "$mod"; mkdir -p "$mod"
  sed -e "s|@KUBE_ROUTER_VERSION@|$KUBE_ROUTER_VERSION|g" -e "s|@COREDNS_VERSION@|$COREDNS_VERSION|g" "$template" > "$mod/go.mod"
  if grep -q '@[A-Z_]*@' "$mod/go.mod"; then log "unsubstituted placeholder in $mod/go.mod"; false; fi
  echo "$mod"
}

build_kubernetes_node() {
  step "kubernetes-node: tools/testbin/build.sh kubernetes-node"
  bash "$TESTBIN_BUILD" kubernetes-node >/dev/null
}

build_kube_router() {
  local out; out="$(dir_kube_router)"
  begin_component "$out" "kube-router $KUBE_ROUTER_VERSION" || return 0
  step "kube-router: prepare wrapper module for $KUBE_ROUTER_MODULE@$KUBE_ROUTER_VERSION"
  local mod; mod="$(prepare_module kube-router "$HERE/kube-router/go.mod.in")"
  go_tidy_build "$mod" "$out" "kube-router: go mod tidy (downloads ~150 modules when cold)" \
    "kube-router: compile cmd/kube-router (about 6 min cold on 2 cores)" \
    -ldflags "$KUBE_ROUTER_LDFLAGS" -o "$out.tmp/bin/kube-router" "$KUBE_ROUTER_MODULE/cmd/kube-router"
  step "kube-router: verify the version stamp"
  local v; v="$("$out.tmp/bin/kube-router" --version 2>&1)"
  [[ "$v" == *"version $KUBE_ROUTER_VERSION,"* ]] || { log "kube-router --version printed '$v'"; false; }
  finish_go_component "$mod" "$out"
}

build_coredns() {
  local out; out="$(dir_coredns)"
  begin_component "$out" "coredns $COREDNS_VERSION" || return 0
  step "coredns: prepare the project's CoreDNS module on github.com/coredns/coredns@$COREDNS_VERSION"
  local mod; mod="$(prepare_module coredns "$HERE/coredns/go.mod.in")"
  cp "$HERE/coredns/main.go" "$mod/"
  go_tidy_build "$mod" "$out" "coredns: go mod tidy" "coredns: compile (plugins: $COREDNS_PLUGINS)" \
    -ldflags "$COREDNS_LDFLAGS" -o "$out.tmp/bin/coredns" .
  step "coredns: verify the version and that exactly the listed plugins are compiled in"
  local v; v="$("$out.tmp/bin/coredns" -version)"
  [[ "${v%%$'\n'*}" == "CoreDNS-${COREDNS_VERSION#v}" ]] || { log "coredns -version printed '$v'"; false; }
  local have want
  have="$("$out.tmp/bin/coredns" -plugins | xargs -n1 | sort | xargs)"
  want="$(printf '%s\n' $COREDNS_PLUGINS $COREDNS_PLUGINS_PULLED_IN | sort | xargs)"
  [[ "$have" == "$want" ]] || { log "coredns -plugins lists '$have', expected '$want' (versions.env vs coredns/main.go)"; false; }
  finish_go_component "$mod" "$out"
}

main() {
  if [[ "${1:-}" == "--paths" ]]; then print_paths; return; fi
  local components=("$@")
  [[ ${#components[@]} -gt 0 ]] || components=(packages kubernetes-node kube-router coredns)
  local c go_needed=0
  for c in "${components[@]}"; do
    case "$c" in
      packages) ;;
      kubernetes-node|kube-router|coredns) go_needed=1 ;;
      *) CURRENT_STEP="arguments"; log "unknown component '$c' (expected packages, kubernetes-node, kube-router or coredns)"; exit 2 ;;
    esac
  done
  if [[ $go_needed -eq 1 ]] && ! command -v go >/dev/null 2>&1; then
    blocked "the Go toolchain (go >= 1.26) is not on PATH; it is needed to build the node's binaries"
  fi
  mkdir -p "$ROOT" "$WORK"
  hold_lock "$ROOT/.lock"
  # The packages first: when they cannot be installed the tier is BLOCKED, and there is no point
  # in building for minutes before saying so.
  [[ " ${components[*]} " != *" packages "* ]] || install_packages
  for c in "${components[@]}"; do
    [[ "$c" == packages ]] || "build_${c//-/_}"
  done
  print_paths
}

main "$@"
