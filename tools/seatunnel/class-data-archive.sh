#!/usr/bin/env bash
# Writes <home>/cds/zeta.jsa: a class-data sharing archive of the classes a Zeta master loads while it
# starts, made by starting one (alone, on 127.0.0.1) with -XX:ArchiveClassesAtExit and stopping it
# once it has become the cluster's master. `kubernetes.class-data-sharing = auto` (the default)
# starts every master and worker with it when it exists (lib/engine/command.ts, ZETA_LAUNCHER).
#
# The archive is only valid for the java that wrote it and for the classpath it was written with,
# so it is made in place, with the plan's own classpath (lib/*:starter/logging/*:starter/
# seatunnel-starter.jar). A JVM that finds it stale ignores it and starts as without it.
#
#   tools/seatunnel/class-data-archive.sh <seatunnel-home>
#
# CDS_PORT: the member port to use (default: a free one, picked with python3).
#
# Exit codes: 0 written (or the java cannot write archives: Java < 13; then nothing is written and
# the reason is printed); 1 the engine did not start or no archive came out (the log is printed).
set -euo pipefail

home="${1:?usage: class-data-archive.sh <seatunnel-home>}"
log() { printf '[seatunnel-cds] %s\n' "$*" >&2; }

major="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
if ((${major%%.*} < 13)); then
  log "java $major cannot write a dynamic archive (Java 13+); no cds/zeta.jsa"
  exit 0
fi

work="$(mktemp -d -t seatunnel-cds.XXXXXX)"
pid=""
cleanup() {
  [[ -n $pid ]] && kill -KILL -- "-$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A free loopback port for the member (the kernel picks it; a bench or test may hold 5801).
port="${CDS_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}"
cat >"$work/hazelcast.yaml" <<EOF
hazelcast:
  cluster-name: seatunnel-cds-$$
  network:
    join:
      auto-detection: { enabled: false }
      multicast: { enabled: false }
      tcp-ip: { enabled: true, member-list: [ "127.0.0.1:$port" ] }
    port: { auto-increment: false, port: $port }
  properties:
    hazelcast.phone.home.enabled: false
    hazelcast.logging.type: log4j2
EOF
cat >"$work/seatunnel.yaml" <<'EOF'
seatunnel:
  engine:
    backup-count: 0
    slot-service: { dynamic-slot: true }
EOF

mkdir -p "$home/cds"
archive="$home/cds/zeta.jsa"
rm -f "$archive"
# shellcheck disable=SC1091
. "$home/zeta.env"
started=$SECONDS
setsid env JDK_JAVA_OPTIONS="$ZETA_JVM_MODULE_FLAGS" HZ_PHONE_HOME_ENABLED=false \
  JAVA_TOOL_OPTIONS="-Dhazelcast.local.localAddress=127.0.0.1 -Dhazelcast.socket.bind.any=false" \
  java -Xms256m -Xmx512m "-XX:ArchiveClassesAtExit=$archive" -Xlog:cds=error \
  "-Dseatunnel.home=$home" "-DSEATUNNEL_HOME=$home" -Dhazelcast.logging.type=log4j2 \
  "-Dseatunnel.config=$work/seatunnel.yaml" "-Dhazelcast.config=$work/hazelcast.yaml" \
  "-Dlog4j2.configurationFile=$home/config/log4j2.properties" "-Dseatunnel.logs.path=$work" \
  -cp "$home/lib/*:$home/starter/logging/*:$home/starter/seatunnel-starter.jar" \
  org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer -r master >"$work/master.log" 2>&1 &
pid=$!

# Up once it is the master and has started its coordinator (the classes a start needs are loaded).
until grep -q 'This node become a new active master node' "$work/master.log"; do
  if ! kill -0 "$pid" 2>/dev/null || ((SECONDS - started > 180)); then
    log "the master did not start (log follows)"
    tail -n 40 "$work/master.log" >&2
    exit 1
  fi
  sleep 0.2
done
sleep 1
# SIGTERM: the JVM runs its shutdown and writes the archive on the way out.
kill -TERM "$pid"
wait "$pid" || true
pid=""
if [[ ! -s $archive ]]; then
  log "no archive was written (log follows)"
  tail -n 40 "$work/master.log" >&2
  exit 1
fi
log "wrote $archive ($(du -h "$archive" | cut -f1)) in $((SECONDS - started)) s"
