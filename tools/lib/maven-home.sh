# Shared by the scripts that assemble a home of jars from Maven Central in the user cache
# (tools/seatunnel/install.sh, tools/hdfs/install.sh, tools/kafka/install.sh): their common start and
# preflight, the build lock, the maven run, and the staged home published whole.
#
#   source "$here/../lib/maven-home.sh"
#   maven_home_start <log tag> "<WHAT> UNAVAILABLE" <help lines of $0, e.g. 2,17> "${1:-}" [force]
#   maven_home_locate <tool> <key>     # --paths and an already complete home end here
#   ... the script's own preflight, then maven_preflight ...
#   maven_home_stage <tool> <key>      # the lock; $stage and $build, removed on exit
#   ... fill $stage ...
#   maven_home_publish                 # $stage becomes $home, marked complete; prints it

# maven_home_start TAG HEADLINE HELP_LINES ARG [force]: sets cache_root, step and mode (install;
# --paths: paths; --force: force, where allowed) from the script's one argument; --help prints the
# header lines HELP_LINES of the script; anything else is a usage error (exit 2).
# shellcheck disable=SC2034  # cache_root, step and mode are the calling script's
maven_home_start() {
  MAVEN_HOME_TAG=$1
  MAVEN_HOME_UNAVAILABLE=$2
  local help=$3 arg=$4 force=${5:-} options="--paths"
  [[ $force == force ]] && options+=", --force"
  cache_root="${SEATUNNEL_APP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/seatunnel-app}"
  step=""
  mode=install
  case "$arg" in
    '') ;;
    --paths) mode=paths ;;
    --force) [[ $force == force ]] && mode=force || maven_home_usage "$arg" "$options" ;;
    -h | --help) sed -n "${help}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) maven_home_usage "$arg" "$options" ;;
  esac
}

maven_home_usage() {
  echo "install.sh: unknown argument '$1' (use $2 or --help)" >&2
  exit 2
}

log() { printf '[%s] %s\n' "$MAVEN_HOME_TAG" "$*" >&2; }
# Exit 3: nothing usable can be obtained here.
unavailable() {
  log "$MAVEN_HOME_UNAVAILABLE: $*"
  exit 3
}
fail() { log "FAILED at step '$step': $*"; exit 1; }

# The preflight every home needs after the script's own (java, javac): maven and flock on PATH.
maven_preflight() {
  MVN="${MVN:-mvn}"
  command -v "$MVN" >/dev/null 2>&1 || unavailable "no maven ('$MVN') on PATH; the jars come from Maven Central"
  command -v flock >/dev/null 2>&1 || fail "no 'flock' on PATH (util-linux)"
}

# maven_home_locate TOOL KEY: sets home ($cache_root/TOOL/KEY). With --paths prints it and exits 0
# when it is complete, 1 when not; a complete home is printed and the script ends (exit 0).
# shellcheck disable=SC2034  # home is the calling script's
maven_home_locate() {
  home="$cache_root/$1/$2"
  if [[ $mode == paths ]]; then
    echo "$home"
    [[ -f $home/.complete ]] && exit 0 || exit 1
  fi
  [[ -f $home/.complete ]] && { echo "$home"; exit 0; }
  return 0
}

# maven_home_stage TOOL KEY: takes the home's build lock (ending at once if another holder finished
# it meanwhile) and sets t0, stage (the home being assembled) and build (maven's directory), both
# emptied now and removed when the script exits.
# shellcheck disable=SC2034  # t0, stage and build are the calling script's
maven_home_stage() {
  mkdir -p "$cache_root/$1"
  hold_lock "$cache_root/$1/.lock-$2"
  [[ -f $home/.complete ]] && { echo "$home"; exit 0; } # finished by the other holder
  t0=$SECONDS
  stage="$home.partial.$$"
  build="$cache_root/$1/build-$2"
  rm -rf "$stage" "$build"
  trap 'rm -rf "$stage" "$build"' EXIT
  mkdir -p "$stage" "$build"
}

# maven_home_publish: replaces the home by the assembled stage, marks it complete, prints it.
maven_home_publish() {
  step="publish"
  rm -rf "$home"
  mv "$stage" "$home"
  date -u +%Y-%m-%dT%H:%M:%SZ >"$home/.complete"
  log "done in $((SECONDS - t0)) s: $(du -sh "$home" | cut -f1) at $home"
  echo "$home"
}

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
