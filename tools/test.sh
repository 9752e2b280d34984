#!/usr/bin/env bash
# The project's test command (README: `npm test`). Runs every tier in order and ends with a
# table of which tiers ran and how they ended. A tier whose prerequisites are missing builds
# them first (with visible progress); nothing is skipped silently: the run exits non-zero unless
# every requested tier ran and passed (a BLOCKED tier fails the run, and the summary says why).
#
#   TIERS="unit cluster" npm test     run a subset (the summary still lists the others as "not requested")
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS="${NODE_OPTIONS:-} --experimental-vm-modules --no-warnings=ExperimentalWarning"
# The engine tier runs while the later tiers' builds go on in the background at idle priority (below): its Zeta
# JVMs take the cores first (under a Go build of equal priority a worker's join once raced its master's start and
# never registered), and the builds use what the tier leaves, most of it, since the tier waits on its jobs. The
# node tier comes next, once its own build has ended, while the Pulumi engine and the oldest control plane are
# still built beside it at the same idle priority: it leaves about half of the two cores idle (its applications
# wait on faults and timeouts; 52 % busy measured), which those builds fill instead of being waited for. The pulumi
# and cluster-oldest tiers, about two minutes of tests together, come last.
ALL_TIERS=(unit cluster engine node pulumi cluster-oldest)
read -r -a REQUESTED <<< "${TIERS:-${ALL_TIERS[*]}}"
declare -A RESULT SECONDS_TAKEN NOTE
failed=0

requested() { local t; for t in "${REQUESTED[@]}"; do [[ "$t" == "$1" ]] && return 0; done; return 1; }
known() { local t; for t in "${ALL_TIERS[@]}"; do [[ "$t" == "$1" ]] && return 0; done; return 1; }

# A misspelt tier would otherwise run nothing and pass.
for t in "${REQUESTED[@]}"; do
  known "$t" || { printf 'TIERS names an unknown tier "%s" (tiers: %s)\n' "$t" "${ALL_TIERS[*]}" >&2; exit 2; }
done
[[ ${#REQUESTED[@]} -gt 0 ]] || { printf 'TIERS is set but names no tier (tiers: %s)\n' "${ALL_TIERS[*]}" >&2; exit 2; }
banner() { printf '\n==== %s ====\n' "$*"; }

# Prerequisite scripts exit 0 when ready, 3 when the component cannot be obtained on this
# machine at all (the tier is then reported BLOCKED with the reason they printed), other codes on failure.
prereq() {
  local tier="$1"; shift
  "$@"
  local rc=$?
  if [[ $rc -eq 3 ]]; then RESULT[$tier]="BLOCKED (prerequisite: $*; its output above says why)"; failed=1; return 1; fi
  if [[ $rc -ne 0 ]]; then RESULT[$tier]="FAILED (prerequisite: $*)"; failed=1; return 1; fi
  return 0
}

# jest_tier <tier> <jest args…>: jest, its results also kept as JSON, so the summary at the end can name each failed
# test (jest lists them itself only past 20 files, and a long tier's output is far above the summary).
RESULTS_DIR="$(mktemp -d -t seatunnel-app-results.XXXXXX)"
trap 'rm -rf "$RESULTS_DIR"' EXIT
jest_tier() {
  local tier="$1"; shift
  npx jest --json --outputFile "$RESULTS_DIR/$tier.json" "$@"
}

# failed_tests <tier>: one line per failed test (file › name: the first lines of its message), or per file that
# failed to run.
failed_tests() {
  [[ -s "$RESULTS_DIR/$1.json" ]] || return 0
  node -e '
    const path = require("path");
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const first = (m) => (m || "").replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim()).filter((l) => l).slice(0, 3).join(" | ") || "(no message)";
    for (const file of r.testResults || []) {
      const rel = path.relative(process.cwd(), file.name);
      const failed = (file.assertionResults || []).filter((a) => a.status === "failed");
      if (file.status === "failed" && failed.length === 0) console.log(`    ${rel}: ${first((file.message || "").replace(/●\s*Test suite failed to run/, ""))}`.slice(0, 400));
      for (const a of failed) console.log(`    ${rel} › ${a.fullName}: ${first(a.failureMessages && a.failureMessages[0])}`.slice(0, 400));
    }' "$RESULTS_DIR/$1.json"
}

run_tier() {
  local tier="$1"; shift
  if ! requested "$tier"; then RESULT[$tier]="not requested"; return; fi
  local t0=$SECONDS
  banner "tier: $tier"
  if "$@"; then RESULT[$tier]="${RESULT[$tier]:-PASSED}"
  elif [[ -z "${RESULT[$tier]:-}" ]]; then RESULT[$tier]="FAILED"; failed=1
  fi
  SECONDS_TAKEN[$tier]=$((SECONDS - t0))
}

tier_unit() {
  banner "typecheck"
  npx tsc -p tsconfig.json --noEmit || { RESULT[unit]="FAILED (typecheck)"; failed=1; return 1; }
  if [[ -f runtime/tsconfig.json ]]; then
    npx tsc -p runtime/tsconfig.json --noEmit || { RESULT[unit]="FAILED (runtime typecheck)"; failed=1; return 1; }
  fi
  # Lint and format findings fail the tier, but the tests still run, so one run shows everything.
  local checks=()
  banner "lint (eslint, eslint.config.mjs)"
  npx eslint . || checks+=("lint: npm run lint")
  banner "format (prettier --check, .prettierrc.json)"
  npx prettier --check . || checks+=("format: npm run format")
  banner "unit tests"
  jest_tier unit --selectProjects unit --ci || checks+=("jest")
  if [[ ${#checks[@]} -gt 0 ]]; then
    local IFS=';'
    RESULT[unit]="FAILED (${checks[*]})"; failed=1; return 1
  fi
}

tier_cluster() {
  prereq cluster bash tools/testbin/build.sh etcd kubernetes kwok || return 1
  jest_tier cluster --selectProjects cluster --ci --runInBand
}

# The core scenarios of the cluster tier against the oldest supported Kubernetes (K8S_OLDEST_VERSION in
# tools/testbin/versions.env; README "Supported Kubernetes versions"): submit, status, cancel,
# owner-reference garbage collection, suspend/unsuspend, and what the CLI says about the server.
# The same test files as the cluster tier, on a control plane of the other version.
CLUSTER_OLDEST_TESTS=(
  test/cluster/cli-submit.test.ts
  test/cluster/cli-status.test.ts
  test/cluster/cli-cancel.test.ts
  test/cluster/garbage-collection.test.ts
  test/cluster/job-lifecycle.test.ts
  test/cluster/cli-server-version.test.ts
)
tier_cluster_oldest() {
  local version
  version="$(sed -n 's/^K8S_OLDEST_VERSION=//p' tools/testbin/versions.env 2>/dev/null)"
  NOTE[cluster-oldest]="Kubernetes ${version:-(K8S_OLDEST_VERSION not found)}"
  printf 'cluster-oldest: the core cluster scenarios against Kubernetes %s (K8S_OLDEST_VERSION, tools/testbin/versions.env)\n' "${version:-?}"
  # Built in the background (below); the call is a no-op then, and builds what is missing otherwise.
  background_part cluster-oldest || true
  prereq cluster-oldest bash tools/testbin/build.sh etcd kubernetes-oldest kwok || return 1
  SEATUNNEL_TEST_KUBERNETES=oldest jest_tier cluster-oldest --selectProjects cluster --ci --runInBand --runTestsByPath "${CLUSTER_OLDEST_TESTS[@]}"
}

tier_engine() {
  # Its S3 server is the first of the background builds; the others go on meanwhile at idle priority.
  background_part engine || true
  [[ -f tools/seatunnel/install.sh ]] || { RESULT[engine]="FAILED (tools/seatunnel/install.sh missing)"; failed=1; return 1; }
  prereq engine bash tools/seatunnel/install.sh || return 1
  prereq engine bash tools/hdfs/install.sh || return 1
  # The data pipelines' broker (tools/local-stack/kafka.ts would assemble it too, but then inside a test's timeout).
  prereq engine bash tools/kafka/install.sh || return 1
  # versitygw: the data pipelines' S3-compatible server (built in the background with the others when it is missing).
  prereq engine bash tools/testbin/build.sh etcd kubernetes kwok versitygw || return 1
  jest_tier engine --selectProjects engine --ci --runInBand
}

# The long builds of the later tiers run in the background from the start of the run, one after the other:
# the engine tier's S3 server (versitygw from its Go module), the node tier's (node binaries, images; mostly
# Go/apt/mmdebstrap work), the pulumi tier's (the Pulumi engine from Go modules, ~10 minutes cold), then the
# cluster-oldest tier's control plane (Kubernetes at K8S_OLDEST_VERSION). At idle priority (nice 19, SCHED_IDLE):
# a tier that runs meanwhile keeps the cores it asks for and the builds take the rest, which is most of the engine
# and node tiers' time. Each tier that needs a part waits for it. `npm run image -- --verify` builds the runtime image a
# second time from an empty cache and fails unless the digests match: the release artefact is reproducible
# (docs/runtime.md, "Delivery").
BACKGROUND_DIR=""
BACKGROUND_PID=""
BACKGROUND_PARTS=()
start_background_builds() {
  local part
  for part in engine node pulumi cluster-oldest; do requested "$part" && BACKGROUND_PARTS+=("$part"); done
  [[ ${#BACKGROUND_PARTS[@]} -gt 0 ]] || return 0
  BACKGROUND_DIR="$(mktemp -d -t seatunnel-app-prereqs.XXXXXX)"
  (
    renice -n 19 -p "$BASHPID" >/dev/null 2>&1 || true
    if command -v chrt >/dev/null; then chrt --idle -p 0 "$BASHPID" >/dev/null 2>&1 || true; fi
    for part in "${BACKGROUND_PARTS[@]}"; do
      background_build "$part" >"$BACKGROUND_DIR/$part.log" 2>&1
      echo $? >"$BACKGROUND_DIR/$part.rc"
    done
  ) &
  BACKGROUND_PID=$!
  printf 'building the prerequisites of the %s tiers in the background at idle priority, one after the other (logs: %s)\n' \
    "${BACKGROUND_PARTS[*]}" "$BACKGROUND_DIR"
}
background_build() {
  case "$1" in
    engine) bash tools/testbin/build.sh versitygw ;;
    node) bash tools/node/build.sh && bash tools/images/build.sh && node tools/images/release.mjs --verify ;;
    pulumi) bash tools/pulumi/build.sh ;;
    cluster-oldest) bash tools/testbin/build.sh kubernetes-oldest ;;
  esac
}

# background_part <part>: waits for that part of the background builds, prints its log, returns its exit code.
background_part() {
  [[ -n "$BACKGROUND_DIR" ]] || return 0
  local waited=$SECONDS
  while [[ ! -f "$BACKGROUND_DIR/$1.rc" ]] && kill -0 "$BACKGROUND_PID" 2>/dev/null; do sleep 2; done
  printf '%s tier: its background build %s (waited %d s here)\n' "$1" "$([[ -f "$BACKGROUND_DIR/$1.rc" ]] && echo ended || echo died)" $((SECONDS - waited))
  cat "$BACKGROUND_DIR/$1.log" 2>/dev/null
  [[ -f "$BACKGROUND_DIR/$1.rc" ]] || return 1
  return "$(cat "$BACKGROUND_DIR/$1.rc")"
}

tier_node() {
  local rc=0
  background_part node || rc=$?
  if [[ $rc -eq 3 ]]; then RESULT[node]="BLOCKED (prerequisite: tools/node/build.sh or tools/images/build.sh; its output above says why)"; failed=1; return 1; fi
  if [[ $rc -ne 0 ]]; then RESULT[node]="FAILED (prerequisite: tools/node/build.sh, tools/images/build.sh or the runtime image's reproducibility, npm run image -- --verify)"; failed=1; return 1; fi
  prereq node bash tools/testbin/build.sh etcd kubernetes kwok || return 1
  jest_tier node --selectProjects node --ci --runInBand
}

tier_pulumi() {
  [[ -f tools/pulumi/build.sh ]] || { RESULT[pulumi]="FAILED (tools/pulumi/build.sh missing)"; failed=1; return 1; }
  # The background build's result is not trusted blindly: the script runs again (a no-op when it is complete,
  # and its own message when it is not).
  background_part pulumi || true
  prereq pulumi bash tools/pulumi/build.sh || return 1
  prereq pulumi bash tools/testbin/build.sh etcd kubernetes kwok || return 1
  jest_tier pulumi --selectProjects pulumi --ci --runInBand
}

start_background_builds
for t in "${ALL_TIERS[@]}"; do run_tier "$t" "tier_${t//-/_}"; done
[[ -z "$BACKGROUND_DIR" ]] || rm -rf "$BACKGROUND_DIR"

banner "tiers"
for t in "${ALL_TIERS[@]}"; do
  printf '  %-15s %-60s %-8s %s\n' "$t" "${RESULT[$t]}" "${SECONDS_TAKEN[$t]:+${SECONDS_TAKEN[$t]} s}" "${NOTE[$t]:-}"
  [[ "${RESULT[$t]}" == PASSED || "${RESULT[$t]}" == "not requested" ]] || failed_tests "$t"
done
# Whatever the branches above recorded, a requested tier that did not pass fails the run.
for t in "${REQUESTED[@]}"; do
  if [[ "${RESULT[$t]}" != PASSED ]]; then
    printf 'FAILED: tier %s was requested and did not pass: %s\n' "$t" "${RESULT[$t]}" >&2
    failed=1
  fi
done
exit $failed
