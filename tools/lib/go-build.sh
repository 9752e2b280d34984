# Shared by the scripts that build cached binaries from Go modules (tools/testbin/build.sh,
# tools/pulumi/build.sh): progress lines, step-named failures, cache-key hashing, quiet commands
# whose output is shown only when they fail, and the Go build defaults for a 2-core machine.
#
#   source "$HERE/../lib/go-build.sh"; go_build_init <log prefix>

# shellcheck disable=SC2034  # CURRENT_STEP is read by the ERR trap
go_build_init() {
  GO_BUILD_PREFIX="$1"
  CURRENT_STEP="start"
  trap 'rc=$?; log "FAILED during step: ${CURRENT_STEP} (exit ${rc})"; exit $rc' ERR
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
