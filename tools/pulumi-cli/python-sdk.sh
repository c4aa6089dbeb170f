#!/usr/bin/env bash
# Makes a Python virtual environment holding the `pulumi` SDK from the Python package registry
# (python-requirements.txt, pinned), once, and prints its bin folder. Put that folder first on
# PATH for Python programs: the language host runs the first `python` it finds there.
#
#   tools/pulumi-cli/python-sdk.sh        -> prints the venv's bin folder (makes it when missing)
#   PULUMI_PYTHON_CACHE=/some/dir ...     -> where to keep it (default ~/.cache/pulumi-clouddb/python-venv)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements="$here/python-requirements.txt"
key="$(sha256sum "$requirements" | cut -c1-12)"
venv="${PULUMI_PYTHON_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-clouddb/python-venv}/$key"
log() { echo "[python-sdk] $*" >&2; }

# The copy of the requirements is written last: its presence says the install finished.
if [[ -f "$venv/requirements.txt" ]]; then
  echo "$venv/bin"
  exit 0
fi

command -v python3 >/dev/null || { log "python3 >= 3.10 (with venv) is needed for Python programs"; exit 1; }
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
  { log "python3 is $(python3 --version 2>&1 | cut -d' ' -f2); the pulumi SDK needs >= 3.10"; exit 1; }
rm -rf "$venv"
start=$SECONDS
log "installing the pulumi SDK from the Python package registry into $venv"
python3 -m venv "$venv" >&2 || { log "python3 -m venv failed: install the venv module (e.g. apt-get install python3-venv)"; exit 1; }
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
cp "$requirements" "$venv/requirements.txt"
log "$("$venv/bin/python" -m pip show pulumi | sed -n 's/^Version: /pulumi /p') installed in $((SECONDS - start)) s"
echo "$venv/bin"
