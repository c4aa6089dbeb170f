#!/usr/bin/env bash
# Builds schema-check (see main.go) from Go modules into a cache folder, once per version of its
# sources, and prints the binary's path. No binary is ever committed.
#
#   tools/schema-check/build.sh                 -> prints the binary's path (builds when missing)
#   SCHEMA_CHECK_CACHE=/some/dir ...            -> where to build (default ~/.cache/pulumi-clouddb/schema-check)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${SCHEMA_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/schema-check}"
# Its sources and those of tools/pkgschema, which it builds with.
version="$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" "$here"/../pkgschema/{go.mod,*.go} | sha256sum | cut -c1-16)"
bin="$cache/$version/schema-check"

if [[ ! -x "$bin" ]]; then
  command -v go >/dev/null || { echo "[schema-check] Go is needed to build it (https://go.dev/dl)" >&2; exit 1; }
  echo "[schema-check] building into $bin (first time: a few minutes, it compiles Pulumi's codegen)" >&2
  mkdir -p "$(dirname "$bin")"
  (cd "$here" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -ldflags "-s -w" -o "$bin.tmp.$$" .)
  mv "$bin.tmp.$$" "$bin"
fi
echo "$bin"
