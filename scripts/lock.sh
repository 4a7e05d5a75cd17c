#!/usr/bin/env bash
# Refresh the hash-pinned lock that `make` installs from (requirements/*.txt).
#
#   scripts/lock.sh                 # keep every pin, add what new extras or deps need
#   scripts/lock.sh --upgrade       # take the newest release of everything
#   scripts/lock.sh --upgrade-package ray   # move one package (and what it needs)
#   EXTRAS=dev,bench scripts/lock.sh        # another set of extras than the Makefile's
#
# The extras come from the Makefile's EXTRAS line, so a helper who adds an extra to the
# install adds it there and re-runs this script. pip-compile (pip-tools) runs in a
# throwaway venv with pinned versions; it resolves for the machine it runs on (CPython
# 3.11 on Linux, `uname -m` as it is) and writes every file's sha256 of each pinned
# release it can see, so the lock installs on this kind of machine. Extra arguments go to
# pip-compile. Takes a few minutes (ray and playwright are large).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PY:-python3}"
PIP_VERSION=26.3
PIP_TOOLS_VERSION=7.6.2
EXTRAS="${EXTRAS:-$(sed -n 's/^EXTRAS[[:space:]]*[:?]*=[[:space:]]*//p' Makefile | head -n 1)}"
if [[ -z "$EXTRAS" ]]; then
    echo "scripts/lock.sh: no EXTRAS line in the Makefile and none given" >&2
    exit 2
fi

tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
"$PY" -m venv "$tools/venv"
"$tools/venv/bin/python" -m pip install --quiet "pip==$PIP_VERSION" "pip-tools==$PIP_TOOLS_VERSION"

# options for the install (find-links, index URLs) stay the machine's own pip settings
export CUSTOM_COMPILE_COMMAND="scripts/lock.sh"
compile=("$tools/venv/bin/pip-compile" --quiet --generate-hashes --allow-unsafe
         --no-emit-find-links --no-emit-index-url --no-emit-trusted-host)

extras=()
for extra in ${EXTRAS//,/ }; do
    extras+=(--extra "$extra")
done
mkdir -p requirements
# the project's dependencies with the chosen extras, plus its build backend (hatchling),
# which `make` installs too so that the editable install needs no unpinned build env
"${compile[@]}" --strip-extras --all-build-deps "${extras[@]}" \
    --output-file requirements/lock.txt "$@" pyproject.toml

# pip itself, installed first by `make`
echo "pip==$PIP_VERSION" > "$tools/pip.in"
"${compile[@]}" --strip-extras --no-annotate --output-file requirements/pip.txt "$tools/pip.in"
echo "requirements/lock.txt: $(grep -c '^[A-Za-z0-9]' requirements/lock.txt) packages for extras $EXTRAS"
