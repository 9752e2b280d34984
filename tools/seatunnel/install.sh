#!/usr/bin/env bash
# Assembles a runnable SeaTunnel Zeta engine home (SEATUNNEL_HOME) from Maven Central jars, in the user cache
# (never in the repository). See tools/seatunnel/README.md for the layout and the verified facts.
#
# Usage:
#   tools/seatunnel/install.sh            install if missing; progress on stderr; prints the home on stdout
#   tools/seatunnel/install.sh --paths    print the home path (exit 0 if installed, 1 if not yet installed)
#   tools/seatunnel/install.sh --force    rebuild even if the home is complete
#
# Environment:
#   SEATUNNEL_APP_CACHE   cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/seatunnel-app)
#   MVN                   maven command (default mvn)
#
# Exit codes: 0 ok; 1 a step failed (the step is named); 2 usage; 3 no usable engine can be obtained on this
# machine at all (no JDK 11+/javac/maven, or the artifacts are not served by the registry) - the reason is printed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
. "$here/versions.env"
# shellcheck source=../lib/maven-home.sh
. "$here/../lib/maven-home.sh"
maven_home_start seatunnel-install "ENGINE UNAVAILABLE" 2,15 "${1:-}" force

# the home's name changes whenever anything that shapes it changes (this script included)
hash="$(cat "$here/versions.env" "$here/launcher/ZetaNode.java" "$here/launcher/SeaTunnelServer.java" "$here/log4j2-console.properties" "$here/install.sh" \
  "$here/class-data-archive.sh" |
  sha256sum | cut -c1-12)"
st_home="$cache_root/seatunnel/${SEATUNNEL_VERSION}-${hash}"

if [[ $mode == paths ]]; then
  echo "$st_home"
  [[ -f $st_home/.complete ]] && exit 0 || exit 1
fi

if [[ $mode == install && -f $st_home/.complete ]]; then
  echo "$st_home"
  exit 0
fi

# ---- step: preflight -------------------------------------------------------------------------------------------
step="preflight"
command -v java >/dev/null 2>&1 || unavailable "no 'java' on PATH (a JDK 11+ is needed; 17 is what was verified)"
command -v javac >/dev/null 2>&1 || unavailable "no 'javac' on PATH (a full JDK is needed to build the launcher)"
maven_preflight
java_major="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
java_major="${java_major#1.}"
[[ $java_major =~ ^[0-9]+$ ]] || fail "cannot read the Java version"
((java_major >= 11)) || unavailable "java $java_major found; the engine needs Java 11+ (verified on 17)"

mkdir -p "$cache_root/seatunnel"
hold_lock "$cache_root/seatunnel/.lock-${SEATUNNEL_VERSION}-${hash}"
if [[ $mode == install && -f $st_home/.complete ]]; then # finished by the other holder
  echo "$st_home"
  exit 0
fi

log "assembling SeaTunnel Zeta ${SEATUNNEL_VERSION} into $st_home"
t0=$SECONDS
stage="$st_home.partial.$$"
build="$cache_root/seatunnel/build-${SEATUNNEL_VERSION}-${hash}"
rm -rf "$stage" "$build"
trap 'rm -rf "$stage" "$build"' EXIT
mkdir -p "$stage"/{lib,starter,connectors,config,logs} "$build"

# ---- step: maven pom (throw-away, outside the repository) ---------------------------------------------------------
step="write throw-away pom"
G=org.apache.seatunnel
V=$SEATUNNEL_VERSION
item() { # groupId artifactId version classifier outputDirectory
  printf '<artifactItem><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version><type>jar</type>' "$1" "$2" "$3"
  [[ -n $4 ]] && printf '<classifier>%s</classifier>' "$4"
  printf '<outputDirectory>%s</outputDirectory></artifactItem>\n' "$5"
}
write_pom "$build/pom.xml" "
    <!-- the engine: server + everything it needs at run time (transitively) -->
    <dependency><groupId>$G</groupId><artifactId>seatunnel-engine-server</artifactId><version>$V</version></dependency>" "
          <execution>
            <id>engine-lib</id><phase>validate</phase><goals><goal>copy-dependencies</goal></goals>
            <configuration><outputDirectory>$stage/lib</outputDirectory><includeScope>runtime</includeScope></configuration>
          </execution>
          <execution>
            <id>shaded-extras</id><phase>validate</phase><goals><goal>copy</goal></goals>
            <configuration><artifactItems>
$(item "$G" "$SEATUNNEL_HADOOP_UBER_ARTIFACT" "$V" "$SEATUNNEL_HADOOP_UBER_CLASSIFIER" "$stage/lib")
$(item "$G" seatunnel-transforms-v2 "$V" "" "$stage/lib")
$(item "$G" connector-fake "$V" "" "$stage/connectors")
$(item "$G" connector-console "$V" "" "$stage/connectors")
$(item "$G" connector-assert "$SEATUNNEL_ASSERT_VERSION" "" "$stage/connectors")
$(for c in $SEATUNNEL_DATA_CONNECTORS; do item "$G" "$c" "$V" "" "$stage/connectors"; done)
$(item org.postgresql postgresql "$POSTGRESQL_JDBC_VERSION" "" "$stage/lib")
$(item com.mysql mysql-connector-j "$MYSQL_JDBC_VERSION" "" "$stage/lib")
$(item org.apache.hadoop hadoop-aws "$HADOOP_AWS_VERSION" "" "$stage/lib")
$(item com.amazonaws aws-java-sdk-bundle "$AWS_JAVA_SDK_BUNDLE_VERSION" "" "$stage/lib")
$(item commons-io commons-io "$COMMONS_IO_VERSION" "" "$stage/lib")
            </artifactItems></configuration>
          </execution>"

# ---- step: fetch jars -------------------------------------------------------------------------------------------
step="fetch jars with maven"
mvn_log="$cache_root/seatunnel/maven-${SEATUNNEL_VERSION}-${hash}.log"
log "step 1/4: resolving engine ${V} (+ its dependencies), Hadoop uber jar, transforms, FakeSource/Console ${V}, Assert ${SEATUNNEL_ASSERT_VERSION}, $SEATUNNEL_DATA_CONNECTORS, the PostgreSQL and MySQL JDBC drivers, hadoop-aws with its AWS SDK (log: $mvn_log)"
maven_validate "$build" "$mvn_log" "SeaTunnel ${V}"
n_lib=$(find "$stage/lib" -name '*.jar' | wc -l)
log "  fetched $n_lib jars into lib/, $(find "$stage/connectors" -name '*.jar' | wc -l) into connectors/ ($((SECONDS - t0)) s)"

# ---- step: launcher ---------------------------------------------------------------------------------------------
step="compile launcher"
log "step 2/4: compiling the node launcher (org.seatunnelapp.zeta.ZetaNode and the SeaTunnelServer entry point)"
mkdir -p "$build/classes"
javac -nowarn --release 11 -d "$build/classes" -cp "$stage/lib/*" "$here/launcher/ZetaNode.java" "$here/launcher/SeaTunnelServer.java" >&2 ||
  fail "javac failed on $here/launcher/ZetaNode.java"
(cd "$build/classes" && jar --create --file "$stage/starter/seatunnel-starter.jar" .) ||
  fail "jar failed"

# ---- step: plugin mapping + config skeleton -----------------------------------------------------------------------
step="write plugin mapping and config skeleton"
log "step 3/4: writing connectors/plugin-mapping.properties and config/"
cat >"$stage/connectors/plugin-mapping.properties" <<'EOF'
# Plugin name -> jar name prefix in connectors/ (written by tools/seatunnel/install.sh)
seatunnel.source.FakeSource = connector-fake
seatunnel.sink.Console = connector-console
seatunnel.sink.Assert = connector-assert
seatunnel.source.Jdbc = connector-jdbc
seatunnel.sink.Jdbc = connector-jdbc
seatunnel.source.Kafka = connector-kafka
seatunnel.sink.Kafka = connector-kafka
seatunnel.source.LocalFile = connector-file-local
seatunnel.sink.LocalFile = connector-file-local
seatunnel.source.S3File = connector-file-s3
seatunnel.sink.S3File = connector-file-s3
seatunnel.source.HdfsFile = connector-file-hadoop
seatunnel.sink.HdfsFile = connector-file-hadoop
seatunnel.source.MySQL-CDC = connector-cdc-mysql
EOF
# Every connector fetched has its names in the mapping (else a job naming it fails "Plugin … not found").
for c in $SEATUNNEL_DATA_CONNECTORS; do
  grep -q "= $c\$" "$stage/connectors/plugin-mapping.properties" || fail "connectors/plugin-mapping.properties names no plugin of $c"
done
cp "$here/log4j2-console.properties" "$stage/config/log4j2.properties"
cat >"$stage/zeta.env" <<EOF
# Facts about this engine home (written by tools/seatunnel/install.sh). See tools/seatunnel/README.md.
SEATUNNEL_VERSION=$SEATUNNEL_VERSION
SEATUNNEL_ASSERT_VERSION=$SEATUNNEL_ASSERT_VERSION
SEATUNNEL_DATA_CONNECTORS='$SEATUNNEL_DATA_CONNECTORS'
ZETA_MAIN_CLASS=org.seatunnelapp.zeta.ZetaNode
ZETA_CLASSPATH='$st_home/starter/*:$st_home/lib/*'
# optional on Java 17 (without them Hazelcast only logs a WARN); this is the list that WARN asks for
ZETA_JVM_MODULE_FLAGS='--add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED'
EOF

# ---- step: verify + publish -------------------------------------------------------------------------------------
step="verify"
log "step 4/4: verifying the home"
for f in "lib/seatunnel-engine-server-$V.jar" "lib/seatunnel-hazelcast-shade-$V-optional.jar" \
  "lib/checkpoint-storage-hdfs-$V.jar" "lib/$SEATUNNEL_HADOOP_UBER_ARTIFACT-$V-$SEATUNNEL_HADOOP_UBER_CLASSIFIER.jar" \
  "connectors/connector-fake-$V.jar" "connectors/connector-console-$V.jar" \
  "connectors/connector-assert-$SEATUNNEL_ASSERT_VERSION.jar" "starter/seatunnel-starter.jar" \
  "lib/postgresql-$POSTGRESQL_JDBC_VERSION.jar" "lib/mysql-connector-j-$MYSQL_JDBC_VERSION.jar" \
  "lib/hadoop-aws-$HADOOP_AWS_VERSION.jar" "lib/aws-java-sdk-bundle-$AWS_JAVA_SDK_BUNDLE_VERSION.jar" \
  "lib/commons-io-$COMMONS_IO_VERSION.jar" \
  $(for c in $SEATUNNEL_DATA_CONNECTORS; do echo "connectors/$c-$V.jar"; done); do
  [[ -s $stage/$f ]] || fail "missing $f"
done
# (--help prints the usage and exits 2; the point is that the class and its imports load)
probe_out="$(java -cp "$stage/starter/*:$stage/lib/*" org.seatunnelapp.zeta.ZetaNode --help 2>&1 || true)"
grep -q '^usage: ZetaNode' <<<"$probe_out" || fail "the launcher does not load with the assembled classpath: $probe_out"
# The plan's command line: java ... -cp lib/*:starter/logging/*:starter/seatunnel-starter.jar SeaTunnelServer -r <role>
probe_out="$(java -cp "$stage/lib/*:$stage/starter/logging/*:$stage/starter/seatunnel-starter.jar" org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer --bogus 2>&1 || true)"
grep -q 'unsupported argument' <<<"$probe_out" || fail "the SeaTunnelServer entry point does not load with the plan's classpath: $probe_out"

step="publish"
rm -rf "$st_home"
mv "$stage" "$st_home"
# zeta.env was written with the final path already
# The class-data sharing archive names the classpath it was made with: it is made at the final path.
step="class-data sharing archive"
bash "$here/class-data-archive.sh" "$st_home" || fail "tools/seatunnel/class-data-archive.sh could not write $st_home/cds/zeta.jsa"
date -u +%Y-%m-%dT%H:%M:%SZ >"$st_home/.complete"
log "done in $((SECONDS - t0)) s: $(du -sh "$st_home" | cut -f1) at $st_home"
echo "$st_home"
