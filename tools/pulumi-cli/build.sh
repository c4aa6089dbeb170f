#!/usr/bin/env bash
# Builds the Pulumi CLI and its Node.js, Python, YAML and Java language hosts from Go modules into a
# cache folder, each once, and prints that folder. Reused on every later call. No binary is ever
# committed. The tools are independent: they build side by side.
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
# pulumi-yaml v1.25.0 (the newest the proxy serves) requires pkg/v3 v3.206.0: a host no newer than
# the CLI it serves.
yaml_version=v1.25.0
java_version="$(required github.com/pulumi/pulumi-java/pkg "$here/java-host/go.mod")"
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

# The YAML and Java hosts' versions are not in the folder's name: a stamp next to each says which
# one was built.
yaml_stamp="$bin/.pulumi-language-yaml.version"
java_stamp="$bin/.pulumi-language-java.version"
built() {
  local name
  for name in pulumi pulumi-language-nodejs pulumi-language-python pulumi-language-python-exec pulumi-language-yaml pulumi-language-java; do
    [[ -x "$bin/$name" ]] || return 1
  done
  [[ "$(cat "$yaml_stamp" 2>/dev/null)" == "$yaml_version" && "$(cat "$java_stamp" 2>/dev/null)" == "$java_version" ]]
}

if built; then
  copy_plugin_script
  echo "$bin"
  exit 0
fi

command -v go >/dev/null || { log "Go is needed to build the Pulumi CLI (https://go.dev/dl), or put a pulumi >= 3 on PATH"; exit 1; }
mkdir -p "$bin"
export CGO_ENABLED=0 GOFLAGS=-mod=mod
# The checksum database serves no pulumi-java module: java-host/go.sum lists them, so only a module
# missing from it would be looked up.
export GONOSUMDB=github.com/pulumi/pulumi-java
version_flag="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version"

# go build prints nothing while it works: say how long it has been running, once a minute.
begin=$SECONDS
( while sleep 60; do log "still building ($((SECONDS - begin)) s so far)"; done ) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null' EXIT

# build NAME WHAT DIR ARGS...: `go build ARGS` in DIR into $bin/NAME, unless it is there already.
build() {
  local name="$1" what="$2" dir="$3"
  shift 3
  [[ -x "$bin/$name" ]] && return 0
  local start=$SECONDS
  log "building $what into $bin"
  (cd "$dir" && go build -o "$bin/$name.tmp.$$" "$@")
  mv "$bin/$name.tmp.$$" "$bin/$name"
  log "$name built in $((SECONDS - start)) s"
}

build pulumi "pulumi $version from Go modules (first time only: 10-20 minutes)" "$here" \
  -ldflags "-s -w $version_flag=$version" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi &

# The Node.js and Python hosts: the proxy serves neither standalone module (sdk/nodejs/cmd/... and
# sdk/python/cmd/... at any version), so both come from sdk/v3 v3.68.0, the last release that
# carried them inside the SDK module.
hosts="$here/language-hosts"
(
  build pulumi-language-nodejs "the Node.js language host (sdk $host_version)" "$hosts" \
    -ldflags "-s -w $version_flag=$host_version" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs
  build pulumi-language-python "the Python language host (sdk $host_version, about a minute)" "$hosts" \
    -ldflags "-s -w $version_flag=$host_version" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
  # The Python host runs programs through this script, found on PATH; it comes with the host's module.
  if [[ ! -x "$bin/pulumi-language-python-exec" ]]; then
    sdk_dir="$(cd "$hosts" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
    install -m 0755 "$sdk_dir/python/cmd/pulumi-language-python-exec" "$bin/pulumi-language-python-exec"
  fi
) &

# The YAML host is built inside the module folder `go mod download` fetches, on that module's own
# go.mod and go.sum (read-only: nothing in the module cache changes). Unlike `go install ...@version`,
# this also builds a release whose go.mod carries replace directives.
if [[ "$(cat "$yaml_stamp" 2>/dev/null)" != "$yaml_version" ]]; then
  (
    rm -f "$bin/pulumi-language-yaml"
    yaml_dir="$(cd "$bin" && go mod download -json "github.com/pulumi/pulumi-yaml@$yaml_version" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [[ -d "$yaml_dir" ]] || { log "go mod download github.com/pulumi/pulumi-yaml@$yaml_version gave no module folder"; exit 1; }
    build pulumi-language-yaml "the YAML language host (pulumi-yaml $yaml_version, about two minutes)" "$yaml_dir" \
      -mod=readonly -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml_version" ./cmd/pulumi-language-yaml
    echo "$yaml_version" >"$yaml_stamp"
  ) &
fi

# The Java host, from java-host/go.mod (pulumi-java's pkg module, with its replace directives).
if [[ "$(cat "$java_stamp" 2>/dev/null)" != "$java_version" ]]; then
  (
    rm -f "$bin/pulumi-language-java"
    build pulumi-language-java "the Java language host (pulumi-java $java_version, about two minutes)" "$here/java-host" \
      -ldflags "-s -w -X github.com/pulumi/pulumi-java/pkg/version.Version=$java_version" \
      github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java
    echo "$java_version" >"$java_stamp"
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
