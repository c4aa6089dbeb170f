#!/usr/bin/env bash
# Builds the Pulumi CLI and the Node.js language host from Go modules into a cache folder,
# once, and prints that folder. Reused on every later call. No binary is ever committed.
#
#   tools/pulumi-cli/build.sh            -> prints the bin folder (builds when missing)
#   PULUMI_CLI_CACHE=/some/dir ...       -> where to build (default ~/.cache/pulumi-clouddb/pulumi-cli)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/pulumi-cli}"
required() { sed -n "s#^[[:space:]]*\(require \)\{0,1\}$1 \(v[0-9.]*\).*#\2#p" "$2" | head -1; }
version="$(required github.com/pulumi/pulumi/pkg/v3 "$here/go.mod")"
host_version="$(required github.com/pulumi/pulumi/sdk/v3 "$here/nodejs-host/go.mod")"
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

if [[ -x "$bin/pulumi" && -x "$bin/pulumi-language-nodejs" ]]; then
  copy_plugin_script
  echo "$bin"
  exit 0
fi

command -v go >/dev/null || { log "Go is needed to build the Pulumi CLI (https://go.dev/dl), or put a pulumi >= 3 on PATH"; exit 1; }
mkdir -p "$bin"
export CGO_ENABLED=0 GOFLAGS=-mod=mod
ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version"

# go build prints nothing while it works: say how long it has been running, once a minute.
begin=$SECONDS
( while sleep 60; do log "still building ($((SECONDS - begin)) s so far)"; done ) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null' EXIT

start=$SECONDS
log "building pulumi $version from Go modules into $bin (first time only: 10-20 minutes)"
(cd "$here" && go build -ldflags "$ldflags" -o "$bin/pulumi.tmp.$$" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
mv "$bin/pulumi.tmp.$$" "$bin/pulumi"
log "pulumi built in $((SECONDS - start)) s"

start=$SECONDS
log "building the Node.js language host (sdk $host_version)"
(cd "$here/nodejs-host" && go build -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$host_version" \
  -o "$bin/pulumi-language-nodejs.tmp.$$" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs)
mv "$bin/pulumi-language-nodejs.tmp.$$" "$bin/pulumi-language-nodejs"
log "language host built in $((SECONDS - start)) s"
copy_plugin_script
echo "$bin"
