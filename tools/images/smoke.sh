#!/usr/bin/env bash
# Proves the archives from build.sh work in containerd, without touching the machine's own
# containerd: starts a throw-away containerd (root, state and sockets in a temp dir, CRI plugin
# off), imports every image through tools/local-stack/node-images.ts (twice: the second run must
# skip), then runs each image with ctr + runc:
#   pause      starts, and exits 0 on SIGTERM
#   seatunnel  java -version; the JVM under a 256 MiB memory limit sizes its heap from it; as a
#              non-root user the plan's classpath and entry point load; bash is there
#   runtime    its CMD (the Dockerfile's) lists /seatunnel-app; the init container's install-runtime
#              copies it into a directory from which node runs in the SeaTunnel image as user 1000
# Needs root, containerd, runc and ctr (apt-get install -y --no-install-recommends containerd runc).
#
#   tools/images/smoke.sh        (builds missing images first)
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=../lib/go-build.sh
source "$HERE/../lib/go-build.sh"
GO_BUILD_PREFIX=images-smoke
CURRENT_STEP=start
trap 'rc=$?; log "FAILED during step: ${CURRENT_STEP} (exit ${rc})"; exit $rc' ERR

for tool in containerd ctr runc; do
  command -v "$tool" >/dev/null 2>&1 || { log "$tool is not installed (apt-get install -y --no-install-recommends containerd runc)"; exit 3; }
done
[[ "$(id -u)" == 0 ]] || { log "containerd needs root"; exit 3; }

step "build missing images"
bash "$HERE/build.sh" >/dev/null

TMP="$(mktemp -d /tmp/images-smoke.XXXXXX)"
SOCK="$TMP/containerd.sock"
CTR=(ctr --address "$SOCK" --namespace k8s.io)
# ctr's FIFOs and runc's state also default to paths under /run/containerd: keep them in $TMP too.
# (containerd 1.6's shims still put their sockets in /run/containerd/s; each is removed when its shim exits.)
RUN=("${CTR[@]}" run --fifo-dir "$TMP/fifo" --runc-root "$TMP/runc")
CONTAINERD_PID=
# The shims' socket directory is fixed (see below): remove it afterwards only if this run created it.
SHIM_DIR_EXISTED=$([[ -d /run/containerd/s ]] && echo yes || echo no)
cleanup() {
  local id
  if [[ -n "$CONTAINERD_PID" ]]; then
    for id in $("${CTR[@]}" tasks ls -q 2>/dev/null); do "${CTR[@]}" tasks kill -s KILL "$id" >/dev/null 2>&1 || true; done
    sleep 1
    for id in $("${CTR[@]}" containers ls -q 2>/dev/null); do
      "${CTR[@]}" tasks delete "$id" >/dev/null 2>&1 || true
      "${CTR[@]}" containers delete "$id" >/dev/null 2>&1 || true
    done
    kill "$CONTAINERD_PID" 2>/dev/null || true
    wait "$CONTAINERD_PID" 2>/dev/null || true
  fi
  grep -F " $TMP/" /proc/mounts | cut -d' ' -f2 | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$TMP"
  [[ "$SHIM_DIR_EXISTED" == yes ]] || rmdir /run/containerd/s /run/containerd 2>/dev/null || true
}
trap cleanup EXIT

step "start a private containerd in $TMP"
cat > "$TMP/config.toml" <<EOF
version = 2
root = "$TMP/root"
state = "$TMP/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$SOCK"
[ttrpc]
  address = "$SOCK.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$TMP/opt"
EOF
containerd --config "$TMP/config.toml" > "$TMP/containerd.log" 2>&1 &
CONTAINERD_PID=$!
for _ in $(seq 1 100); do "${CTR[@]}" version >/dev/null 2>&1 && break; sleep 0.1; done
"${CTR[@]}" version >/dev/null || { tail -20 "$TMP/containerd.log" >&2; false; }
log "containerd $(containerd --version | awk '{print $3}') up (pid $CONTAINERD_PID)"

step "import the images through node-images.ts (then again: must skip)"
cat > "$TMP/import.ts" <<EOF
import { importImages, resolveImages } from '$REPO/tools/local-stack/node-images';
(async () => {
  const images = await resolveImages({ build: false });
  for (const pass of [1, 2]) {
    const lines: string[] = [];
    const t0 = Date.now();
    await importImages('ctr', '$SOCK', images, (l) => { lines.push(l); console.error(l); });
    console.error(\`pass \${pass}: \${((Date.now() - t0) / 1000).toFixed(1)} s\`);
    if (pass === 2 && lines.some((l) => !l.includes('already imported'))) throw new Error('second import did not skip');
  }
  for (const i of images) console.log(i.name, i.ref);
})().catch((e) => { console.error(e); process.exit(1); });
EOF
(cd "$REPO" && npx ts-node --transpile-only -O '{"module":"commonjs"}' "$TMP/import.ts") > "$TMP/refs.txt"
ref() { awk -v n="$1" '$1 == n { print $2 }' "$TMP/refs.txt"; }
"${CTR[@]}" images ls | sed 's/^/  /' >&2

# Runs a command, shows its output indented, keeps it in $out; fails (after showing it) if the command does.
capture() {
  local rc=0
  out="$("$@" 2>&1)" || rc=$?
  [[ -z "$out" ]] || sed 's/^/  | /' <<<"$out" >&2
  return "$rc"
}
# ctr run takes the full name containerd stored (the short runtime ref was normalized).
stored() { "${CTR[@]}" images ls -q | grep -E "(^|/)$(sed 's/[.]/[.]/g' <<<"$1")\$" | head -n1; }

step "pause: runs, exits 0 on SIGTERM"
"${RUN[@]}" --rm "$(stored "$(ref pause)")" smoke-pause &
pause_run=$!
for _ in $(seq 1 50); do
  "${CTR[@]}" tasks ls 2>/dev/null | grep -q 'smoke-pause.*RUNNING' && break
  sleep 0.1
done
"${CTR[@]}" tasks ls | grep -q 'smoke-pause.*RUNNING'
"${CTR[@]}" tasks kill -s TERM smoke-pause
code=0
wait "$pause_run" || code=$?
[[ "$code" == 0 ]] || { log "pause exited $code on SIGTERM"; false; }

ST="$(stored "$(ref seatunnel)")"
step "seatunnel: java -version"
capture "${RUN[@]}" --rm "$ST" smoke-java java -version
grep -q 'openjdk version "17' <<<"$out"

step "seatunnel: the JVM sizes its heap from a 256 MiB cgroup v1 memory limit"
# ctr run, unlike the kubelet's CRI, mounts no /sys/fs/cgroup; without it the JVM sees no limit.
out="$("${RUN[@]}" --rm --mount type=cgroup,src=cgroup,dst=/sys/fs/cgroup,options=ro:nosuid:noexec:nodev \
  --memory-limit 268435456 "$ST" smoke-mem java -XshowSettings:system -XX:+PrintFlagsFinal -version 2>&1 | grep -E ' MaxHeapSize |Provider:|Memory Limit:')"
echo "$out" | sed 's/^/  | /' >&2
grep -q 'Memory Limit: 256.00M' <<<"$out"
heap="$(awk '/ MaxHeapSize / {print $4}' <<<"$out")"
((heap <= 134217728)) || { log "MaxHeapSize $heap is not derived from the 256 MiB limit"; false; }

step "seatunnel: as user 1000 the plan's classpath and entry point load; bash and SEATUNNEL_HOME"
# (ctr 1.6 run has no --user: setpriv, from util-linux, which is Essential, drops to the user)
out="$("${RUN[@]}" --rm --cwd /opt/seatunnel "$ST" smoke-user setpriv --reuid=1000 --regid=1000 --clear-groups bash -c \
  'echo home=$SEATUNNEL_HOME pwd=$(pwd) uid=$(id -u); touch logs/probe && echo logs-writable; java -cp "/opt/seatunnel/lib/*:/opt/seatunnel/starter/logging/*:/opt/seatunnel/starter/seatunnel-starter.jar" org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer --bogus' 2>&1 || true)"
echo "$out" | sed 's/^/  | /' >&2
grep -q 'home=/opt/seatunnel pwd=/opt/seatunnel uid=1000' <<<"$out"
grep -q 'logs-writable' <<<"$out"
grep -q 'unsupported argument' <<<"$out"

RT="$(stored "$(ref runtime)")"
step "runtime: the image's CMD (the Dockerfile's) lists what it holds"
capture "${RUN[@]}" --rm "$RT" smoke-rt
grep -q ' /seatunnel-app/bin/node$' <<<"$out"
grep -q ' /seatunnel-app/bin/install-runtime$' <<<"$out"
grep -q ' /seatunnel-app/runtime.cjs$' <<<"$out"

step "runtime: the init container's copy, and the copied node runs in the SeaTunnel image (as the master container)"
mkdir -p "$TMP/shared"
capture "${RUN[@]}" --rm --mount "type=bind,src=$TMP/shared,dst=/opt/seatunnel-app,options=rbind:rw" "$RT" smoke-cp \
  /seatunnel-app/bin/install-runtime /seatunnel-app /opt/seatunnel-app
capture "${RUN[@]}" --rm --mount "type=bind,src=$TMP/shared,dst=/opt/seatunnel-app,options=rbind:ro" "$ST" smoke-node \
  setpriv --reuid=1000 --regid=1000 --clear-groups /opt/seatunnel-app/bin/node -e 'console.log(require("fs").statSync("/opt/seatunnel-app/runtime.cjs").size > 0)'
grep -qx true <<<"$out"

log "all checks passed"
