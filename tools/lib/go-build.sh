# Shared by the scripts that build cached binaries from Go modules (tools/testbin/build.sh,
# tools/node/build.sh, tools/pulumi/build.sh): their common start, progress lines, step-named
# failures, cache-key hashing, quiet commands whose output is shown only when they fail, and the Go
# build defaults for a 2-core machine.
#
#   HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
#   source "$HERE/../lib/go-build.sh"; go_build_init <name> [go-optional]

# go_build_init NAME [go-optional]: log prefix NAME; an ERR trap that names the failed step;
# CACHE_ROOT (SEATUNNEL_APP_CACHE, else the user cache) and ROOT=$CACHE_ROOT/NAME; GO_VERSION for
# cache keys (a missing toolchain fails here, unless go-optional: then "none"); CGO off and GOFLAGS.
# shellcheck disable=SC2034  # CURRENT_STEP is read by the ERR trap; the rest by the calling script
go_build_init() {
  GO_BUILD_PREFIX="$1"
  CURRENT_STEP="start"
  trap 'rc=$?; log "FAILED during step: ${CURRENT_STEP} (exit ${rc})"; exit $rc' ERR
  CACHE_ROOT="${SEATUNNEL_APP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/seatunnel-app}"
  ROOT="$CACHE_ROOT/$1"
  if [[ "${2:-}" == go-optional ]]; then
    GO_VERSION="$(go env GOVERSION 2>/dev/null || echo none)"
  else
    GO_VERSION="$(go env GOVERSION)"
  fi
  export CGO_ENABLED=0
  # Keep flags from `go env -w GOFLAGS=...` (an exported GOFLAGS replaces them) and build two
  # packages at a time (2-core machines; more only adds memory pressure at link time). A caller's
  # own -p wins.
  local flags
  flags="$(go env GOFLAGS 2>/dev/null || true)"
  [[ " $flags " == *" -p="* ]] || flags="$flags -p=2"
  GOFLAGS="$(echo "$flags" | xargs)"
  export GOFLAGS
}

log() { printf '[%s %s] %s\n' "$GO_BUILD_PREFIX" "$(date +%H:%M:%S)" "$*" >&2; }
step() { CURRENT_STEP="$*"; log "$*"; }
sha() { sha256sum | cut -c1-12; }

# Runs a command, keeping its output in a log file that is shown (the tail) if it fails.
run_logged() {
  local logfile="$1"; shift
  if ! "$@" >"$logfile" 2>&1; then
    tail -n 60 "$logfile" >&2
    log "full log: $logfile"
    return 1
  fi
}

# Starts building the component at OUT, unless it is complete (then it says so and returns 1):
# `begin_component "$out" "etcd $V" || return 0`. Notes the start time for finish_go_component.
begin_component() {
  if [[ -f "$1/.complete" ]]; then
    log "$2 cached at $1"
    return 1
  fi
  COMPONENT_T0=$SECONDS
}

# Builds from the wrapper module MOD into a fresh OUT.tmp/bin: `go mod tidy`, then
# `go build -trimpath ARGS...`; each is the named step TIDY_STEP / BUILD_STEP, its output shown
# only when it fails. Every caller links with -ldflags -w, which drops the DWARF tables, yet the go
# command still has every package compiled with them: -dwarf=false spares that work (etcd from an
# empty build cache: 53 s of CPU instead of 60, a binary of the same size). It concerns debug
# information only, which the link drops anyway, so the key of a cached component does not change:
# a component built without it stays valid.
go_tidy_build() {
  local mod="$1" out="$2" tidy_step="$3" build_step="$4"; shift 4
  step "$tidy_step"
  (cd "$mod" && run_logged "$mod/tidy.log" go mod tidy)
  step "$build_step"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/bin"
  (cd "$mod" && run_logged "$mod/build.log" go build -trimpath -gcflags=all=-dwarf=false "$@")
}

# Publishes a component begun with begin_component and built from the wrapper module MOD into
# OUT.tmp (its go.mod and go.sum go along, a record of what it was built from): see finish_component.
finish_go_component() {
  cp "$1/go.mod" "$1/go.sum" "$2.tmp/"
  finish_component "$2" "$COMPONENT_T0"
}

# Publishes a component built into "$out.tmp": records its size and build time, marks it
# complete and renames it into place (a reader never sees a half-built directory).
finish_component() {
  local out="$1" t0="$2"
  du -sb "$out.tmp" | cut -f1 > "$out.tmp/.size-bytes"
  echo "$((SECONDS - t0))" > "$out.tmp/.build-seconds"
  touch "$out.tmp/.complete"
  rm -rf "$out"; mv "$out.tmp" "$out"
  log "built $(basename "$out") in $((SECONDS - t0)) s, $(du -sh "$out" | cut -f1)"
}

# Holds an exclusive lock on a file for the rest of the script (fd 9): a second concurrent run
# waits, then finds the components already built.
hold_lock() {
  exec 9>"$1"
  if ! flock -n 9; then
    log "another build holds $1; waiting for it"
    flock 9
  fi
}
