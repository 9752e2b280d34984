# Shared by the scripts that assemble a home of jars from Maven Central in the user cache
# (tools/seatunnel/install.sh, tools/hdfs/install.sh). Source it after defining
# log MESSAGE, unavailable REASON (exit 3) and fail REASON (exit 1).

# Holds an exclusive lock on FILE (fd 9) for the rest of the script, waiting for another holder.
hold_lock() {
  exec 9>"$1"
  if ! flock -n 9; then
    log "another install holds $1; waiting"
    flock 9
  fi
}

# Runs `mvn validate` on BUILD_DIR/pom.xml with its output in LOG. A registry that does not serve
# WHAT (or cannot be reached) is "unavailable" (exit 3); any other failure is a failed step.
maven_validate() {
  local build=$1 mvn_log=$2 what=$3
  if ! (cd "$build" && "${MVN:-mvn}" -B -ntp -f pom.xml validate) >"$mvn_log" 2>&1; then
    grep -E '^\[ERROR\]' "$mvn_log" | head -5 >&2 || true
    if grep -qE 'Could not find artifact|was not found in|Could not transfer artifact|Unknown ?Host|Connection refused|Network is unreachable|Failed to read artifact descriptor' "$mvn_log"; then
      unavailable "maven could not obtain the $what artifacts (full log: $mvn_log)"
    fi
    fail "maven failed (full log: $mvn_log)"
  fi
}

# Writes a throw-away pom (outside the repository) to FILE whose validate phase runs
# maven-dependency-plugin EXECUTIONS (XML) over DEPENDENCIES (XML).
write_pom() {
  local file=$1 dependencies=$2 executions=$3
  cat >"$file" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.seatunnel-app</groupId>
  <artifactId>home-assembly</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
$dependencies
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <version>$MAVEN_DEPENDENCY_PLUGIN_VERSION</version>
        <executions>
$executions
        </executions>
      </plugin>
    </plugins>
  </build>
</project>
POM
}
