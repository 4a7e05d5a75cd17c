#!/usr/bin/env bash
# Run the server's storage tests against a real PostgreSQL: a throwaway server on loopback
# in a temporary directory (scripts/services.sh, shared with the cluster tests), removed
# on exit.
#
#   scripts/postgres-test.sh            # storage tests only
#   scripts/postgres-test.sh -k restart # extra pytest arguments are passed on
set -euo pipefail

cd "$(dirname "$0")/.."
PYTEST=${PYTEST:-.venv/bin/pytest}
. scripts/services.sh
services_init
start_postgres || true
if [ "$SERVICES_MISSING" = 1 ]; then
    # make test must not fail on a developer machine without it; CI runs as root
    echo "postgres-test: SKIPPED, PostgreSQL is not installed (apt-get install -y postgresql)" >&2
    [ "${PAIJU_REQUIRE_POSTGRES:-0}" = 1 ] && exit 2
    exit 0
fi
export PAIJU_TEST_POSTGRES_URL="$PG_URL"
"$PYTEST" -q tests/server/test_server_storage.py -k postgresql "$@"
