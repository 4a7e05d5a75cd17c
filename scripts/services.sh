# Throwaway PostgreSQL and Redis servers on loopback for tests and the developer cluster.
# Sourced by postgres-test.sh, cluster-test.sh and cluster.sh:
#
#   . scripts/services.sh
#   services_init            # a temporary directory; everything in it is removed on exit
#   start_postgres           # sets PG_URL (postgresql+asyncpg://…)
#   start_redis              # sets REDIS_URL (redis://127.0.0.1:PORT/0)
#
# Missing Debian packages are installed with apt-get when running as root (CI); otherwise
# the caller is told and SERVICES_MISSING is set.

free_port() {
    python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"
}

_apt_install() {
    if [ "$(id -u)" -ne 0 ]; then
        return 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1 || {
        apt-get update -q >/dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
    }
}

_pg_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

services_init() {
    SERVICES_WORK=${SERVICES_WORK:-$(mktemp -d /tmp/paiju-services.XXXXXX)}
    mkdir -p "$SERVICES_WORK"
    chmod 755 "$SERVICES_WORK"
    SERVICES_KEEP=${SERVICES_KEEP:-0}
    # the PostgreSQL server refuses to run as root: run it as the postgres user
    if [ "$(id -u)" -eq 0 ]; then AS=(runuser -u postgres --); else AS=(); fi
    trap services_stop EXIT
}

services_stop() {
    if [ -n "${PGBIN:-}" ] && [ -d "$SERVICES_WORK/pg" ]; then
        "${AS[@]}" "$PGBIN/pg_ctl" -D "$SERVICES_WORK/pg" -m immediate stop >/dev/null 2>&1 || true
    fi
    if [ -f "$SERVICES_WORK/redis.pid" ]; then
        kill "$(cat "$SERVICES_WORK/redis.pid")" 2>/dev/null || true
    fi
    if [ "$SERVICES_KEEP" != 1 ]; then rm -rf "$SERVICES_WORK"; fi
}

start_postgres() {
    PGBIN=$(_pg_bin)
    if [ -z "$PGBIN" ]; then
        _apt_install postgresql || {
            echo "services: PostgreSQL is not installed (apt-get install -y postgresql)" >&2
            SERVICES_MISSING=1
            return 1
        }
        PGBIN=$(_pg_bin)
    fi
    local port=${PAIJU_PG_PORT:-$(free_port)}
    if [ "$(id -u)" -eq 0 ]; then
        mkdir -p "$SERVICES_WORK/pg" && chown postgres "$SERVICES_WORK" "$SERVICES_WORK/pg"
    fi
    "${AS[@]}" "$PGBIN/initdb" -D "$SERVICES_WORK/pg" -U paiju --auth=trust -E UTF8 >/dev/null
    "${AS[@]}" "$PGBIN/pg_ctl" -D "$SERVICES_WORK/pg" -l "$SERVICES_WORK/postgres.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $SERVICES_WORK -c fsync=off" start >/dev/null
    "${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$port" -U paiju paiju_test
    PG_URL="postgresql+asyncpg://paiju@127.0.0.1:$port/paiju_test"
}

start_redis() {
    if ! command -v redis-server >/dev/null; then
        _apt_install redis-server || {
            echo "services: Redis is not installed (apt-get install -y redis-server)" >&2
            SERVICES_MISSING=1
            return 1
        }
    fi
    local port=${PAIJU_REDIS_PORT:-$(free_port)}
    # nothing to keep: no snapshots, no append-only file
    redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
        --dir "$SERVICES_WORK" --daemonize yes --pidfile "$SERVICES_WORK/redis.pid" \
        --logfile "$SERVICES_WORK/redis.log"
    local i
    for i in $(seq 1 100); do
        if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
            REDIS_URL="redis://127.0.0.1:$port/0"
            return 0
        fi
        sleep 0.1
    done
    echo "services: redis-server did not answer on port $port (log: $SERVICES_WORK/redis.log)" >&2
    return 1
}
