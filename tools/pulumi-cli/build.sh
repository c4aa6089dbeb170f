#!/usr/bin/env bash
# Builds the Pulumi CLI and its Node.js, Python, YAML and Java language hosts from Go modules into a
# cache folder, each once, and prints that folder. Reused on every later call. No binary is ever
# committed.
#
#   tools/pulumi-cli/build.sh            -> prints the bin folder (builds what is missing)
#   PULUMI_CLI_CACHE=/some/dir ...       -> where to build (default ~/.cache/pulumi-clouddb/pulumi-cli)
#
# Python programs also need the `pulumi` SDK: tools/pulumi-cli/python-sdk.sh makes its venv.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/pulumi-cli}"
required() { sed -n "s#^[[:space:]]*\(require \)\{0,1\}$1 \(v[0-9.]*\).*#\2#p" "$2" | head -1; }
version="$(required github.com/pulumi/pulumi/pkg/v3 "$here/go.mod")"
host_version="$(required github.com/pulumi/pulumi/sdk/v3 "$here/language-hosts/go.mod")"
# The YAML and Java hosts share one module, yaml-java-hosts: pulumi-yaml v1.25.0 (the newest the
# proxy serves) and pulumi-java v1.17.0 both build on pkg/v3 v3.206.0 (a host no newer than the CLI
# it serves), so what they share is compiled once.
yaml_version="$(required github.com/pulumi/pulumi-yaml "$here/yaml-java-hosts/go.mod")"
java_version="$(required github.com/pulumi/pulumi-java/pkg "$here/yaml-java-hosts/go.mod")"
bin="$cache/$version-nodejs-$host_version/bin"
log() { echo "[pulumi-cli] $*" >&2; }

# The dynamic-provider plugin is a shell script shipped in @pulumi/pulumi; it resolves the SDK from
# the program's own folder, so one copy next to the binaries serves every project.
copy_plugin_script() {
  local script="$here/../../node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  if [[ -f "$script" && ! -x "$bin/pulumi-resource-pulumi-nodejs" ]]; then
    install -m 0755 "$script" "$bin/pulumi-resource-pulumi-nodejs"
  fi
}

# The YAML and Java hosts' versions are not in the folder's name: a stamp says which were built, and
# from which go.sum.
hosts_stamp="$bin/.yaml-java-hosts.version"
hosts_id="yaml $yaml_version java $java_version $(sha256sum "$here/yaml-java-hosts/go.sum" | cut -c1-16)"
built() {
  local name
  for name in pulumi pulumi-language-nodejs pulumi-language-python pulumi-language-python-exec pulumi-language-yaml pulumi-language-java; do
    [[ -x "$bin/$name" ]] || return 1
  done
  [[ "$(cat "$hosts_stamp" 2>/dev/null)" == "$hosts_id" ]]
}

if built; then
  copy_plugin_script
  echo "$bin"
  exit 0
fi

command -v go >/dev/null || { log "Go is needed to build the Pulumi CLI (https://go.dev/dl), or put a pulumi >= 3 on PATH"; exit 1; }
mkdir -p "$bin"
export CGO_ENABLED=0 GOFLAGS=-mod=mod
# The checksum database serves no pulumi-java module: yaml-java-hosts/go.sum lists them, so only a
# module missing from it would be looked up.
export GONOSUMDB=github.com/pulumi/pulumi-java
version_flag="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version"

# go build prints nothing while it works: say how long it has been running, once a minute.
begin=$SECONDS
( while sleep 60; do log "still building ($((SECONDS - begin)) s so far)"; done ) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null' EXIT

# build NAMES WHAT DIR ARGS...: `go build ARGS` in DIR into $bin, unless every one of NAMES (the
# binaries of the packages in ARGS, comma-separated) is there already.
build() {
  local names="$1" what="$2" dir="$3" name missing=0
  shift 3
  for name in ${names//,/ }; do [[ -x "$bin/$name" ]] || missing=1; done
  (( missing )) || return 0
  local start=$SECONDS out="$bin/.build.$$.$RANDOM"
  log "building $what into $bin"
  mkdir -p "$out"
  (cd "$dir" && go build -o "$out/" "$@")
  for name in ${names//,/ }; do mv "$out/$name" "$bin/$name"; done
  rmdir "$out"
  log "${names//,/ and } built in $((SECONDS - start)) s"
}

# Three builds, each on its own module with its own versions. Concurrent builds share nothing they
# compile at the same time, so the Node.js and Python hosts go first (Go's standard library is then in
# the build cache for the other two, which run side by side). The proxy serves neither standalone
# module (sdk/nodejs/cmd/... and sdk/python/cmd/... at any version), so both come from sdk/v3
# v3.68.0, the last release that carried them inside the SDK module.
hosts="$here/language-hosts"
build pulumi-language-nodejs,pulumi-language-python "the Node.js and Python language hosts (sdk $host_version)" "$hosts" \
  -ldflags "-s -w $version_flag=$host_version" \
  github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
# The Python host runs programs through this script, found on PATH; it comes with the host's module.
if [[ ! -x "$bin/pulumi-language-python-exec" ]]; then
  sdk_dir="$(cd "$hosts" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
  install -m 0755 "$sdk_dir/python/cmd/pulumi-language-python-exec" "$bin/pulumi-language-python-exec"
fi

build pulumi "pulumi $version from Go modules (first time only: 5-10 minutes)" "$here" \
  -ldflags "-s -w $version_flag=$version" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi &

if [[ "$(cat "$hosts_stamp" 2>/dev/null)" != "$hosts_id" ]]; then
  (
    rm -f "$bin/pulumi-language-yaml" "$bin/pulumi-language-java"
    build pulumi-language-java,pulumi-language-yaml \
      "the Java and YAML language hosts (pulumi-java $java_version, pulumi-yaml $yaml_version)" "$here/yaml-java-hosts" \
      -ldflags "-s -w -X github.com/pulumi/pulumi-java/pkg/version.Version=$java_version -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml_version" \
      github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
    echo "$hosts_id" >"$hosts_stamp"
  ) &
fi

failed=0
for job in $(jobs -p); do
  [[ "$job" == "$ticker" ]] && continue
  wait "$job" || failed=1
done
(( failed == 0 )) || { log "a build failed (its error is above)"; exit 1; }
log "everything built in $((SECONDS - begin)) s"

copy_plugin_script
echo "$bin"
