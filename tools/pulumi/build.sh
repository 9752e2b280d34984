#!/usr/bin/env bash
# Builds a real Pulumi engine from published Go modules into a cache outside the repository:
#   pulumi                      the CLI and engine (github.com/pulumi/pulumi/pkg/v3)
#   pulumi-language-nodejs      the Node.js language host (the project's own, language-nodejs/:
#                               the upstream module is not served; README.md)
#   pulumi-resource-kubernetes  the Kubernetes provider (github.com/pulumi/pulumi-kubernetes/provider/v4)
#
#   tools/pulumi/build.sh [cli] [language-nodejs] [kubernetes]   build what is missing (default: all)
#   tools/pulumi/build.sh --paths                                  print where everything lives, build nothing
#
# Each component is built in its own wrapper module and cached under a key made of its version,
# its wrapper files, the Go version and the build flags; the three are then hard-linked into one
# directory, <cache>/pulumi/<key>/, whose bin/ holds pulumi and pulumi-language-nodejs side by side
# (the CLI looks for bundled language hosts next to itself) and whose plugins/ holds the provider
# (install it with `pulumi plugin install resource kubernetes <version> --file ...`).
#
# Idempotent (.complete markers), safe against concurrent runs (flock), every failure names the
# step that broke. Exit codes: 0 ready, 3 a required module cannot be obtained at all on this
# machine (the reason is printed; tools/test.sh then reports the pulumi tier BLOCKED), other
# codes on failure.
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"

# shellcheck source=../lib/go-build.sh
source "$HERE/../lib/go-build.sh"
go_build_init pulumi
COMPONENTS="$ROOT/components"
WORK="$ROOT/build"



# Build flags. Upstream builds the CLI with -trimpath, tags osusergo,grpcnotrace and the version
# stamped into sdk/v3's version package; the language host gets the same, the provider its own stamp.
SDK_VERSION_VAR=github.com/pulumi/pulumi/sdk/v3/go/common/version.Version
K8S_VERSION_VAR=github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version
PULUMI_TAGS=osusergo,grpcnotrace
CLI_LDFLAGS="-s -w -X $SDK_VERSION_VAR=$PULUMI_VERSION"
K8S_LDFLAGS="-s -w -X $K8S_VERSION_VAR=$PULUMI_KUBERNETES_VERSION"

# The cache key: anything that changes the produced binary changes the directory name.
key_for() {
  local component="$1" version="$2" flags="$3"; shift 3
  { printf '%s\n%s\n%s\n%s\n' "$component" "$version" "$GO_VERSION" "$flags"; cat "$@"; } | sha
}
dir_cli() {
  echo "$COMPONENTS/cli-$PULUMI_VERSION-$(key_for cli "$PULUMI_VERSION" "trimpath tags=$PULUMI_TAGS $CLI_LDFLAGS" "$HERE/cli/go.mod.in")"
}
dir_language_nodejs() {
  echo "$COMPONENTS/language-nodejs-$PULUMI_VERSION-$(key_for language-nodejs "$PULUMI_VERSION" "trimpath tags=$PULUMI_TAGS $CLI_LDFLAGS" \
    "$HERE/language-nodejs/go.mod.in" "$HERE/language-nodejs/main.go")"
}
dir_kubernetes() {
  echo "$COMPONENTS/kubernetes-$PULUMI_KUBERNETES_VERSION-$(key_for kubernetes \
    "$PULUMI_KUBERNETES_VERSION $PULUMI_KUBERNETES_MODULE_VERSION" "trimpath $K8S_LDFLAGS embed-from-module" \
    "$HERE/kubernetes/go.mod.in" "$HERE/kubernetes/main.go")"
}
# The assembled engine directory, keyed by the three component directories.
dir_engine() {
  echo "$ROOT/engine-$PULUMI_VERSION-k8s-$PULUMI_KUBERNETES_VERSION-$(printf '%s\n' "$(dir_cli)" "$(dir_language_nodejs)" "$(dir_kubernetes)" | sha)"
}

print_paths() {
  local d e; e="$(dir_engine)"
  if [[ -f "$e/.complete" ]]; then echo "engine=$e"; else echo "engine=$e (missing)"; fi
  echo "bin=$e/bin"
  echo "pulumi=$e/bin/pulumi"
  echo "language-nodejs=$e/bin/pulumi-language-nodejs"
  echo "kubernetes-provider=$e/plugins/pulumi-resource-kubernetes"
  echo "kubernetes-provider-version=$PULUMI_KUBERNETES_VERSION"
  echo "pulumi-version=${PULUMI_VERSION#v}"
  for c in cli language_nodejs kubernetes; do
    d="$(dir_$c)"
    if [[ -f "$d/.complete" ]]; then echo "component.${c//_/-}=$d"; else echo "component.${c//_/-}=$d (missing)"; fi
  done
}

# Exits 3 if the Go module proxy refuses a module version outright (it is then not obtainable on
# this machine); any other download failure (network, time-out) is an ordinary failure.
require_module() {
  local mod="$1" version="$2" out err
  step "probe: go mod download $mod@$version"
  out="$(go mod download -json "$mod@$version" 2>&1 || true)"
  err="$(printf '%s\n' "$out" | sed -n 's/^[[:space:]]*"Error": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -z "$err" ]] && return 0
  if [[ "$err" =~ (403|404|410|not\ available|unknown\ revision|invalid\ version|not\ found) ]]; then
    log "BLOCKED: $mod@$version cannot be obtained from the Go module proxy: $err"
    echo "pulumi engine BLOCKED: $mod@$version is not served ($err)"
    exit 3
  fi
  log "go mod download failed: $err"
  return 1
}

# Prepares a wrapper module in $WORK/<name> from a template, with the versions substituted.
prepare_module() {
  local name="$1" template="$2"
  local mod="$WORK/$name"
  rm -rf "$mod"; mkdir -p "$mod"
  sed -e "s|@PULUMI_VERSION@|$PULUMI_VERSION|g" \
      -e "s|@PULUMI_KUBERNETES_MODULE_VERSION@|$PULUMI_KUBERNETES_MODULE_VERSION|g" "$template" > "$mod/go.mod"
  if grep -q '@[A-Z_]*@' "$mod/go.mod"; then log "unsubstituted placeholder in $mod/go.mod"; false; fi
  echo "$mod"
}


build_cli() {
  local out; out="$(dir_cli)"
  begin_component "$out" "cli $PULUMI_VERSION" || return 0
  require_module github.com/pulumi/pulumi/pkg/v3 "$PULUMI_VERSION"
  require_module github.com/pulumi/pulumi/sdk/v3 "$PULUMI_VERSION"
  step "cli: prepare wrapper module for github.com/pulumi/pulumi/pkg/v3@$PULUMI_VERSION"
  local mod; mod="$(prepare_module cli "$HERE/cli/go.mod.in")"
  go_tidy_build "$mod" "$out" "cli: go mod tidy (downloads ~290 modules when cold)" \
    "cli: compile pulumi (10-20 min cold on 2 cores)" \
    -tags "$PULUMI_TAGS" -ldflags "$CLI_LDFLAGS" -o "$out.tmp/bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  step "cli: verify the version stamp"
  local v; v="$(PULUMI_SKIP_UPDATE_CHECK=true "$out.tmp/bin/pulumi" version)"
  [[ "$v" == "$PULUMI_VERSION" ]] || { log "pulumi version printed '$v', expected $PULUMI_VERSION"; false; }
  finish_go_component "$mod" "$out"
}

build_language_nodejs() {
  local out; out="$(dir_language_nodejs)"
  begin_component "$out" "language-nodejs $PULUMI_VERSION" || return 0
  require_module github.com/pulumi/pulumi/sdk/v3 "$PULUMI_VERSION"
  step "language-nodejs: prepare the project's language host module on sdk/v3@$PULUMI_VERSION"
  local mod; mod="$(prepare_module language-nodejs "$HERE/language-nodejs/go.mod.in")"
  cp "$HERE/language-nodejs/main.go" "$mod/"
  go_tidy_build "$mod" "$out" "language-nodejs: go mod tidy" "language-nodejs: compile pulumi-language-nodejs" \
    -tags "$PULUMI_TAGS" -ldflags "$CLI_LDFLAGS" -o "$out.tmp/bin/pulumi-language-nodejs" .
  step "language-nodejs: verify the version stamp"
  local v; v="$("$out.tmp/bin/pulumi-language-nodejs" -version)"
  [[ "$v" == "$PULUMI_VERSION" ]] || { log "pulumi-language-nodejs -version printed '$v'"; false; }
  finish_go_component "$mod" "$out"
}

build_kubernetes() {
  local out; out="$(dir_kubernetes)"
  begin_component "$out" "kubernetes provider $PULUMI_KUBERNETES_VERSION" || return 0
  local provider=github.com/pulumi/pulumi-kubernetes/provider/v4
  require_module "$provider" "$PULUMI_KUBERNETES_MODULE_VERSION"
  step "kubernetes: prepare wrapper module for $provider@$PULUMI_KUBERNETES_MODULE_VERSION"
  local mod; mod="$(prepare_module kubernetes "$HERE/kubernetes/go.mod.in")"
  cp "$HERE/kubernetes/main.go" "$mod/"
  step "kubernetes: write the embedded schema and Terraform mapping from the module cache"
  local src; src="$(go env GOMODCACHE)/$provider@$PULUMI_KUBERNETES_MODULE_VERSION/cmd/pulumi-resource-kubernetes"
  [[ -f "$src/schema.json" && -f "$src/terraform-mapping.json" ]] || { log "schema.json or terraform-mapping.json missing in $src"; false; }
  # What upstream's `go generate` does: the schema with "version" set, both files re-serialised compactly.
  node -e '
    const fs = require("fs");
    const [src, dst, version] = process.argv.slice(1);
    const schema = JSON.parse(fs.readFileSync(src + "/schema.json", "utf8"));
    schema.version = version;
    fs.writeFileSync(dst + "/schema-embed.json", JSON.stringify(schema));
    const mapping = JSON.parse(fs.readFileSync(src + "/terraform-mapping.json", "utf8"));
    fs.writeFileSync(dst + "/terraform-mapping-embed.json", JSON.stringify(mapping));
  ' "$src" "$mod" "$PULUMI_KUBERNETES_VERSION"
  go_tidy_build "$mod" "$out" "kubernetes: go mod tidy" \
    "kubernetes: compile pulumi-resource-kubernetes (10-15 min cold on 2 cores)" \
    -ldflags "$K8S_LDFLAGS" -o "$out.tmp/bin/pulumi-resource-kubernetes" .
  step "kubernetes: verify the module version and version stamp recorded in the binary"
  local info; info="$(go version -m "$out.tmp/bin/pulumi-resource-kubernetes")"
  grep -qE "dep[[:space:]]+$provider[[:space:]]+$PULUMI_KUBERNETES_MODULE_VERSION" <<<"$info" \
    || { log "the binary was not built from $provider@$PULUMI_KUBERNETES_MODULE_VERSION"; false; }
  # -trimpath keeps -ldflags out of the build info, so look for the stamped string itself.
  LC_ALL=C grep -qaF "$PULUMI_KUBERNETES_VERSION" "$out.tmp/bin/pulumi-resource-kubernetes" \
    || { log "the binary has no version stamp $PULUMI_KUBERNETES_VERSION"; false; }
  finish_go_component "$mod" "$out"
}

# Hard-links the three components into one directory (no extra disk).
assemble() {
  local e; e="$(dir_engine)"
  [[ -f "$e/.complete" ]] && return
  local cli lang k8s; cli="$(dir_cli)"; lang="$(dir_language_nodejs)"; k8s="$(dir_kubernetes)"
  local c
  for c in "$cli" "$lang" "$k8s"; do [[ -f "$c/.complete" ]] || return 0; done
  step "assemble $e"
  rm -rf "$e.tmp"; mkdir -p "$e.tmp/bin" "$e.tmp/plugins"
  ln -f "$cli/bin/pulumi" "$e.tmp/bin/pulumi"
  ln -f "$lang/bin/pulumi-language-nodejs" "$e.tmp/bin/pulumi-language-nodejs"
  ln -f "$k8s/bin/pulumi-resource-kubernetes" "$e.tmp/plugins/pulumi-resource-kubernetes"
  printf 'PULUMI_VERSION=%s\nPULUMI_KUBERNETES_VERSION=%s\nLANGUAGE_NODEJS=project-written (tools/pulumi/language-nodejs)\n' \
    "$PULUMI_VERSION" "$PULUMI_KUBERNETES_VERSION" > "$e.tmp/versions"
  touch "$e.tmp/.complete"
  rm -rf "$e"; mv "$e.tmp" "$e"
}

main() {
  if [[ "${1:-}" == "--paths" ]]; then print_paths; return; fi
  local components=("$@")
  [[ ${#components[@]} -gt 0 ]] || components=(cli language-nodejs kubernetes)
  command -v go >/dev/null || { CURRENT_STEP="toolchain"; log "go is not on PATH"; exit 1; }
  mkdir -p "$COMPONENTS" "$WORK"
  hold_lock "$ROOT/.lock"
  local c
  for c in "${components[@]}"; do
    case "$c" in
      cli) build_cli ;;
      language-nodejs) build_language_nodejs ;;
      kubernetes) build_kubernetes ;;
      *) CURRENT_STEP="arguments"; log "unknown component '$c' (expected cli, language-nodejs or kubernetes)"; exit 2 ;;
    esac
  done
  assemble
  print_paths
}

main "$@"
