#!/usr/bin/env bash
# What the browser tests need: Debian's chromium and a CJK font (apt-get, only if missing),
# and the client built into web/dist (npm ci && npm run build). Never `playwright install`:
# the tests drive /usr/bin/chromium through Playwright's executable_path.
#
#   scripts/e2e-setup.sh          # install what is missing, build the client
#   SKIP_WEB_BUILD=1 scripts/e2e-setup.sh   # packages only
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || missing+=(fonts-wqy-microhei)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "e2e-setup: missing ${missing[*]}; run as root or: sudo apt-get install -y ${missing[*]}" >&2
        exit 2
    fi
    echo "e2e-setup: apt-get install ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null \
        || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null; }
fi

if [ "${SKIP_WEB_BUILD:-0}" != 1 ]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent)
fi
