#!/usr/bin/env bash
# Makes a Python virtual environment holding `build` and setuptools (python-requirements.txt,
# pinned) from the Python package registry, once, and prints its `python`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements="$here/python-requirements.txt"
key="$(sha256sum "$requirements" | cut -c1-12)"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/python-build/$key"

# The copy of the requirements is written last: its presence says the install finished.
if [[ ! -f "$venv/requirements.txt" ]]; then
  command -v python3 >/dev/null || { echo "[python-build] python3 (with venv) is needed to build the Python SDK" >&2; exit 1; }
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/requirements.txt"
fi
echo "$venv/bin/python"
