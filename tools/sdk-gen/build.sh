#!/usr/bin/env bash
# Builds sdk-gen (see main.go) from Go modules into a cache folder, once per version of its
# sources, and prints the binary's path. No binary is ever committed.
#
#   tools/sdk-gen/build.sh                 -> prints the binary's path (builds when missing)
#   SDK_GEN_CACHE=/some/dir ...            -> where to build (default ~/.cache/pulumi-clouddb/sdk-gen)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SDK_GEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/sdk-gen}"
# Its sources and those of tools/pkgschema, which it builds with.
version="$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" "$here"/../pkgschema/{go.mod,*.go} | sha256sum | cut -c1-16)"
bin="$cache/$version/sdk-gen"

if [[ ! -x "$bin" ]]; then
  command -v go >/dev/null || { echo "[sdk-gen] Go is needed to build it (https://go.dev/dl)" >&2; exit 1; }
  echo "[sdk-gen] building into $bin (first time: a few minutes, it compiles the Java and .NET generators)" >&2
  mkdir -p "$(dirname "$bin")"
  # The checksum database serves no pulumi-java module: go.sum lists them, so only a module missing
  # from it would be looked up.
  (cd "$here" && CGO_ENABLED=0 GOFLAGS=-mod=mod GONOSUMDB=github.com/pulumi/pulumi-java \
    go build -ldflags "-s -w" -o "$bin.tmp.$$" .)
  mv "$bin.tmp.$$" "$bin"
fi
echo "$bin"
