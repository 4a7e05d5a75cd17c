#!/usr/bin/env bash
# Run the server's storage tests against a real PostgreSQL: a throwaway cluster in a temporary
# directory, listening on loopback only, owned by the postgres user, removed on exit.
#
#   scripts/postgres-test.sh            # storage tests only
#   scripts/postgres-test.sh -k restart # extra pytest arguments are passed on
set -euo pipefail

cd "$(dirname "$0")/.."
PYTEST=${PYTEST:-.venv/bin/pytest}
PORT=${PAIJU_PG_PORT:-$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")}

find_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

PGBIN=$(find_bin)
if [ -z "$PGBIN" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        # make test must not fail on a developer machine without it; CI runs as root
        echo "postgres-test: SKIPPED, PostgreSQL is not installed (apt-get install -y postgresql)" >&2
        [ "${PAIJU_REQUIRE_POSTGRES:-0}" = 1 ] && exit 2
        exit 0
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null
    PGBIN=$(find_bin)
fi

# the server refuses to run as root: run it as the postgres user (or as ourselves if not root)
if [ "$(id -u)" -eq 0 ]; then
    AS=(runuser -u postgres --)
else
    AS=()
fi

WORK=$(mktemp -d /tmp/paiju-pg.XXXXXX)
chmod 755 "$WORK"
if [ "$(id -u)" -eq 0 ]; then chown postgres "$WORK"; fi
cleanup() {
    "${AS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

"${AS[@]}" "$PGBIN/initdb" -D "$WORK/data" -U paiju --auth=trust -E UTF8 >/dev/null
"${AS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $WORK -c fsync=off" start >/dev/null
"${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U paiju paiju_test

export PAIJU_TEST_POSTGRES_URL="postgresql+asyncpg://paiju@127.0.0.1:$PORT/paiju_test"
"$PYTEST" -q tests/server/test_server_storage.py -k postgresql "$@"
