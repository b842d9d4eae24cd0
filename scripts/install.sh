#!/usr/bin/env bash
# Install Summary Bot (with PostgreSQL support) into the Python environment of the `python`
# first on PATH, then check the install. The Dockerfile runs this script, and so does CI
# (`.ci/run`, in a fresh venv): the image's install steps are tested without a Docker engine.
#
#   scripts/install.sh [SOURCE_DIR]      (SOURCE_DIR: the checkout; default: current directory)
set -euo pipefail

src=$(cd "${1:-.}" && pwd)
if [[ ! -f "$src/pyproject.toml" ]]; then
  echo "install.sh: $src has no pyproject.toml (pass the project's directory)" >&2
  exit 2
fi
if ! command -v python >/dev/null 2>&1; then
  echo "install.sh: no \`python\` on PATH" >&2
  exit 2
fi

echo "-- install.sh: $(python --version 2>&1) at $(command -v python)"
echo "-- installing $src[postgres]"
python -m pip install --no-cache-dir --quiet "$src[postgres]"

# Check the installed package, not the checkout: run from an empty directory (so `python -c`
# cannot import the sources from the current directory) and call the `summarybot` script of
# this Python environment (not whichever one PATH finds first).
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
cd "$check"
summarybot="$(python -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/summarybot"

echo "-- check: summarybot --help"
"$summarybot" --help >/dev/null

echo "-- check: import bot, storage, summarizer, migrations (and psycopg)"
python -c "import bot, storage, summarizer, migrations, psycopg"

echo "-- check: summarybot migrate on a new SQLite database"
"$summarybot" --database "sqlite:///$check/check.db" migrate

echo "-- install.sh: OK"
