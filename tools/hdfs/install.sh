#!/usr/bin/env bash
# Assembles a runnable in-process HDFS for the engine tier (Hadoop's MiniDFSCluster, started by
# tools/hdfs/MiniHdfs.java on 127.0.0.1) from Maven Central jars, in the user cache (never in the
# repository). Only the engine tier's remote-checkpoint test needs it.
#
# Usage:
#   tools/hdfs/install.sh            install if missing; progress on stderr; prints the home on stdout
#   tools/hdfs/install.sh --paths    print the home path (exit 0 if installed, 1 if not yet installed)
#
# The home: lib/*.jar (the Hadoop jars) and classes/ (MiniHdfs). Start it with
#   java -cp "<home>/classes:<home>/lib/*" org.seatunnelapp.hdfs.MiniHdfs <base-dir>
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
maven_home_start hdfs-install "HDFS UNAVAILABLE" 2,17 "${1:-}"

hash="$(cat "$here/versions.env" "$here/MiniHdfs.java" "$here/install.sh" | sha256sum | cut -c1-12)"
key="${HADOOP_VERSION}-${hash}"
maven_home_locate hdfs "$key"

step="preflight"
command -v javac >/dev/null 2>&1 || unavailable "no 'javac' on PATH (a JDK 11+ is needed)"
maven_preflight

maven_home_stage hdfs "$key"
log "assembling Hadoop ${HADOOP_VERSION} MiniDFSCluster into $home"
mkdir -p "$stage/lib" "$stage/classes"

step="write throw-away pom"
G=org.apache.hadoop
V=$HADOOP_VERSION
# MiniDFSCluster lives in hadoop-hdfs's test jar; hadoop-hdfs declares hadoop-hdfs-client and
# hadoop-common as provided, so they are named here (with its test jar, which MiniDFSCluster's helpers come from).
write_pom "$build/pom.xml" "
    <dependency><groupId>$G</groupId><artifactId>hadoop-hdfs</artifactId><version>$V</version></dependency>
    <dependency><groupId>$G</groupId><artifactId>hadoop-hdfs</artifactId><version>$V</version><type>test-jar</type></dependency>
    <dependency><groupId>$G</groupId><artifactId>hadoop-hdfs-client</artifactId><version>$V</version></dependency>
    <dependency><groupId>$G</groupId><artifactId>hadoop-common</artifactId><version>$V</version></dependency>
    <dependency><groupId>$G</groupId><artifactId>hadoop-common</artifactId><version>$V</version><type>test-jar</type></dependency>" "
          <execution>
            <id>hdfs-lib</id><phase>validate</phase><goals><goal>copy-dependencies</goal></goals>
            <configuration><outputDirectory>$stage/lib</outputDirectory><includeScope>runtime</includeScope></configuration>
          </execution>"

step="fetch jars with maven"
mvn_log="$cache_root/hdfs/maven-$key.log"
log "step 1/3: resolving hadoop-hdfs ${V} (+ test jar) and hadoop-common ${V} (log: $mvn_log)"
maven_validate "$build" "$mvn_log" "Hadoop ${V}"
log "  fetched $(find "$stage/lib" -name '*.jar' | wc -l) jars ($((SECONDS - t0)) s)"

step="compile launcher"
log "step 2/3: compiling MiniHdfs"
javac -nowarn --release 11 -d "$stage/classes" -cp "$stage/lib/*" "$here/MiniHdfs.java" >&2 || fail "javac failed on $here/MiniHdfs.java"

log "step 3/3: publishing"
maven_home_publish
