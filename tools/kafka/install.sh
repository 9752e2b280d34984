#!/usr/bin/env bash
# Assembles a Kafka broker for the data pipelines (the engine tier's tests and `npm run example -- --pipeline kafka-…`)
# from Maven Central jars, in the user cache (never in the repository): the broker with its run-time dependencies
# and a logging backend, and TopicTool (create a topic, produce into it, read it back). No release archive: its
# shell scripts are only `java -cp libs/* <class>`, which tools/local-stack/kafka.ts runs itself (KRaft, one process
# that is broker and controller, 127.0.0.1, free ports, a directory of its own).
#
# Usage:
#   tools/kafka/install.sh            install if missing; progress on stderr; prints the home on stdout
#   tools/kafka/install.sh --paths    print the home path (exit 0 if installed, 1 if not yet installed)
#
# The home: libs/*.jar and classes/ (TopicTool). Start the broker with
#   java -cp "<home>/libs/*" kafka.Kafka server.properties     (after kafka.tools.StorageTool format)
#
# Environment: SEATUNNEL_APP_CACHE (cache root, default ${XDG_CACHE_HOME:-$HOME/.cache}/seatunnel-app), MVN.
# Exit codes: 0 ok; 1 a step failed (named); 2 usage; 3 nothing usable can be obtained here (no JDK/maven,
# or the artifacts are not served) - the reason is printed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
. "$here/versions.env"
# shellcheck source=../lib/maven-home.sh
. "$here/../lib/maven-home.sh"
maven_home_start kafka-install "KAFKA UNAVAILABLE" 2,17 "${1:-}"

# the home's name changes whenever anything that shapes it changes (this script included)
hash="$(cat "$here/versions.env" "$here/TopicTool.java" "$here/install.sh" | sha256sum | cut -c1-12)"
key="${KAFKA_SCALA_VERSION}-${KAFKA_VERSION}-${hash}"
maven_home_locate kafka "$key"

step="preflight"
command -v java >/dev/null 2>&1 || unavailable "no 'java' on PATH (a JDK 11+ is needed; 17 is what was verified)"
command -v javac >/dev/null 2>&1 || unavailable "no 'javac' on PATH (a full JDK is needed to build TopicTool)"
maven_preflight

maven_home_stage kafka "$key"
log "assembling Kafka ${KAFKA_VERSION} (Scala ${KAFKA_SCALA_VERSION}) into $home"
mkdir -p "$stage/libs" "$stage/classes"

step="write throw-away pom"
# kafka_<scala> is the broker (kafka.Kafka, kafka.tools.StorageTool); its runtime scope brings kafka-clients, the
# raft, metadata, storage and server modules, Scala and Jackson.
write_pom "$build/pom.xml" "
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_${KAFKA_SCALA_VERSION}</artifactId><version>${KAFKA_VERSION}</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-simple</artifactId><version>${SLF4J_SIMPLE_VERSION}</version></dependency>" "
          <execution>
            <id>kafka-libs</id><phase>validate</phase><goals><goal>copy-dependencies</goal></goals>
            <configuration><outputDirectory>$stage/libs</outputDirectory><includeScope>runtime</includeScope></configuration>
          </execution>"

step="fetch jars with maven"
mvn_log="$cache_root/kafka/maven-$key.log"
log "step 1/3: resolving kafka_${KAFKA_SCALA_VERSION} ${KAFKA_VERSION} (+ its run-time dependencies) and slf4j-simple ${SLF4J_SIMPLE_VERSION} (log: $mvn_log)"
maven_validate "$build" "$mvn_log" "Kafka ${KAFKA_VERSION}"
log "  fetched $(find "$stage/libs" -name '*.jar' | wc -l) jars ($((SECONDS - t0)) s)"
for f in "kafka_${KAFKA_SCALA_VERSION}-${KAFKA_VERSION}.jar" "kafka-clients-${KAFKA_VERSION}.jar" "slf4j-simple-${SLF4J_SIMPLE_VERSION}.jar"; do
  [[ -s $stage/libs/$f ]] || fail "missing libs/$f"
done
# Two slf4j major versions side by side log nothing (1.7's backend is not found by a 2.x api, and the reverse).
api="$(find "$stage/libs" -name 'slf4j-api-*.jar' -printf '%f\n')"
[[ $api == "slf4j-api-${SLF4J_SIMPLE_VERSION%%.*}."* ]] || fail "the broker brings $api, slf4j-simple is ${SLF4J_SIMPLE_VERSION}: set SLF4J_SIMPLE_VERSION in versions.env to the same major version"

step="compile TopicTool"
log "step 2/3: compiling TopicTool"
javac -nowarn --release 11 -d "$stage/classes" -cp "$stage/libs/*" "$here/TopicTool.java" >&2 || fail "javac failed on $here/TopicTool.java"

step="verify"
log "step 3/3: verifying the home"
# (--help prints the usage; the point is that the broker's tool classes and Scala load from libs/)
probe="$(java -cp "$stage/libs/*" kafka.tools.StorageTool --help 2>&1 || true)"
grep -q 'format' <<<"$probe" || fail "kafka.tools.StorageTool does not load from libs/: $probe"

maven_home_publish
