#!/usr/bin/env bash
# Create or update the project's local virtual environment (.venv) from a requirements file.
# Usage: scripts/bootstrap.sh requirements.txt|requirements-dev.txt
# Re-installs only when the requirements files changed since the last successful install.
set -euo pipefail
cd "$(dirname "$0")/.."
req="${1:-requirements.txt}"
python_bin="${PYTHON:-}"
if [ -z "$python_bin" ]; then
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then python_bin="$candidate"; break; fi
  done
fi
[ -n "$python_bin" ] || { echo "bootstrap: no python3 found (Python 3.11 required)" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv with $python_bin" >&2
  "$python_bin" -m venv .venv
fi
stamp=".venv/.installed-$(basename "$req")"
digest=$(cat requirements.txt "$req" | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$digest" ]; then
  echo "bootstrap: installing $req into .venv (about a minute the first time; later runs skip this)" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
  echo "$digest" > "$stamp"
fi
