#!/usr/bin/env bash
# Builds pulumi-resource-floor, the no-op provider plugin of main.go (the engine's floor for the
# small-stacks benchmark), from Go modules into a cache folder, once, and prints that folder. Put it
# on PATH and the engine finds the plugin there. No binary is ever written beside this script.
#
#   tools/floor-provider/build.sh        -> prints the folder holding pulumi-resource-floor
#   FLOOR_PROVIDER_CACHE=/some/dir ...   -> where to build (default ~/.cache/pulumi-clouddb/floor-provider)
#
# The folder is named after go.mod, go.sum and main.go: an edit to any of them builds anew, and an
# unchanged tree answers at once.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${FLOOR_PROVIDER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/floor-provider}"
hash="$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" | sha256sum | cut -c1-16)"
bin="$cache/$hash"
log() { echo "[floor-provider] $*" >&2; }

if [[ -x "$bin/pulumi-resource-floor" ]]; then
  echo "$bin"
  exit 0
fi

command -v go >/dev/null || { log "Go is needed to build the floor provider (https://go.dev/dl)"; exit 1; }
export CGO_ENABLED=0 GOFLAGS=-mod=mod

# go build prints nothing while it works: say how long it has been running, once a minute.
begin=$SECONDS
( while sleep 60; do log "still building ($((SECONDS - begin)) s so far)"; done ) &
ticker=$!
out="$bin/.build.$$.$RANDOM"
trap 'kill "$ticker" 2>/dev/null; rm -rf "$out"' EXIT

log "building pulumi-resource-floor into $bin (first time only: about a minute, more on a cold module cache)"
mkdir -p "$out"
(cd "$here" && go build -trimpath -ldflags "-s -w" -o "$out/pulumi-resource-floor" .)
mv "$out/pulumi-resource-floor" "$bin/pulumi-resource-floor"
log "built in $((SECONDS - begin)) s"

echo "$bin"
