#!/usr/bin/env bash
# Writes <home>/cds/zeta.jsa: a class-data sharing archive of the classes a Zeta master loads while it
# starts. Two steps, so that no running engine is in the picture when the archive is written:
#   1. a master started alone on 127.0.0.1 with -XX:DumpLoadedClassList lists the classes it loads
#      until it is the cluster's master (it is then stopped);
#   2. `java -Xshare:dump` archives those classes, with the plan's classpath, in a JVM of its own.
# (A dynamic archive, -XX:ArchiveClassesAtExit, is written while the engine shuts down; Java 17's
# crashed doing that once in a loaded run.) The archive is then checked with -Xshare:on, which
# refuses an archive the JVM cannot use. `kubernetes.class-data-sharing = auto` (the default) starts
# every master and worker with it when it exists (lib/engine/command.ts, ZETA_LAUNCHER).
#
# The archive is only valid for the java that wrote it and for the jars (paths, sizes, mtimes) it
# was written with, so it is made in place, with the plan's own classpath (lib/*:starter/logging/*:
# starter/seatunnel-starter.jar). A JVM that finds it stale ignores it and starts as without it.
#
#   tools/seatunnel/class-data-archive.sh <seatunnel-home>
#
# CDS_PORT: the member port to use (default: a free one, picked with python3).
#
# Exit codes: 0 written (or the java cannot use application class archives: Java < 11; then nothing
# is written and the reason is printed); 1 a step failed (its log is printed).
set -euo pipefail

home="${1:?usage: class-data-archive.sh <seatunnel-home>}"
log() { printf '[seatunnel-cds] %s\n' "$*" >&2; }

major="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
if ((${major%%.*} < 11)); then
  log "java $major has no application class-data sharing here (Java 11+); no cds/zeta.jsa"
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
classpath="$home/lib/*:$home/starter/logging/*:$home/starter/seatunnel-starter.jar"
main=org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer
started=$SECONDS
setsid env JDK_JAVA_OPTIONS="$ZETA_JVM_MODULE_FLAGS" HZ_PHONE_HOME_ENABLED=false \
  JAVA_TOOL_OPTIONS="-Dhazelcast.local.localAddress=127.0.0.1 -Dhazelcast.socket.bind.any=false" \
  java -Xms256m -Xmx512m "-XX:DumpLoadedClassList=$work/classes.lst" \
  "-Dseatunnel.home=$home" "-DSEATUNNEL_HOME=$home" -Dhazelcast.logging.type=log4j2 \
  "-Dseatunnel.config=$work/seatunnel.yaml" "-Dhazelcast.config=$work/hazelcast.yaml" \
  "-Dlog4j2.configurationFile=$home/config/log4j2.properties" "-Dseatunnel.logs.path=$work" \
  -cp "$classpath" "$main" -r master >"$work/master.log" 2>&1 &
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
kill -KILL -- "-$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
pid=""
[[ -s $work/classes.lst ]] || { log "the master listed no classes (log follows)"; tail -n 40 "$work/master.log" >&2; exit 1; }

if ! JDK_JAVA_OPTIONS="$ZETA_JVM_MODULE_FLAGS" java -Xshare:dump "-XX:SharedClassListFile=$work/classes.lst" \
  "-XX:SharedArchiveFile=$archive" -cp "$classpath" >"$work/dump.log" 2>&1 || [[ ! -s $archive ]]; then
  log "java -Xshare:dump failed (log follows)"
  tail -n 40 "$work/dump.log" >&2
  rm -f "$archive"
  exit 1
fi
# -Xshare:on fails where the plan's -Xshare:auto would quietly start without the archive.
check="$(JDK_JAVA_OPTIONS="$ZETA_JVM_MODULE_FLAGS" java -Xshare:on "-XX:SharedArchiveFile=$archive" -cp "$classpath" "$main" --bogus 2>&1 || true)"
if ! grep -q "unsupported argument '--bogus'" <<<"$check"; then
  log "the JVM cannot use the archive it just wrote: $check"
  rm -f "$archive"
  exit 1
fi
log "wrote $archive ($(du -h "$archive" | cut -f1), $(wc -l <"$work/classes.lst") classes listed) in $((SECONDS - started)) s"
