# Throwaway PostgreSQL and Redis servers on loopback for tests and the developer cluster,
# and the paiju nodes that run on them. Sourced by postgres-test.sh, cluster-test.sh,
# cluster.sh and cluster-load.sh:
#
#   . scripts/services.sh
#   services_init            # a temporary directory; everything in it is removed on exit
#   start_postgres           # sets PG_URL (postgresql+asyncpg://…)
#   start_redis              # sets REDIS_URL (redis://127.0.0.1:PORT/0)
#   start_node a 8001 LOG    # `paiju serve --node a` on them, waited for until it is ready
#
# On exit (or Ctrl-C, or SIGTERM) the nodes are stopped first (they hand their rooms over
# through Redis and PostgreSQL), then the servers; SERVICES_LOGS=DIR keeps their logs.
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
    SERVICES_MISSING=0
    NODE_PIDS=()
    trap services_stop EXIT
    trap 'exit 130' INT TERM
}

services_stop() {
    trap - EXIT INT TERM
    stop_nodes
    if [ -n "${PGBIN:-}" ] && [ -d "$SERVICES_WORK/pg" ]; then
        "${AS[@]}" "$PGBIN/pg_ctl" -D "$SERVICES_WORK/pg" -m immediate stop >/dev/null 2>&1 || true
    fi
    if [ -f "$SERVICES_WORK/redis.pid" ]; then
        kill "$(cat "$SERVICES_WORK/redis.pid")" 2>/dev/null || true
    fi
    if [ -n "${SERVICES_LOGS:-}" ]; then cp "$SERVICES_WORK"/*.log "$SERVICES_LOGS"/ 2>/dev/null || true; fi
    if [ "$SERVICES_KEEP" != 1 ]; then rm -rf "$SERVICES_WORK"; fi
}

# start_node NAME PORT LOG: one paiju node on 127.0.0.1:PORT against REDIS_URL and PG_URL,
# its output in LOG; returns once it answers /api/ready (fails if it exits first or takes
# more than 120 s). BIN (default .venv/bin), SETTINGS (its --settings JSON) and NICE (its
# nice level, default 0) apply. Its pid is NODE_PID and joins NODE_PIDS.
start_node() {
    local name=$1 port=$2 log=$3
    nice -n "${NICE:-0}" "${BIN:-.venv/bin}/paiju" serve --host 127.0.0.1 --port "$port" \
        --node "$name" --redis "$REDIS_URL" --database "$PG_URL" \
        ${SETTINGS:+--settings "$SETTINGS"} >"$log" 2>&1 &
    NODE_PID=$!
    NODE_PIDS+=("$NODE_PID")
    local _
    for _ in $(seq 1 240); do
        curl -sf "http://127.0.0.1:$port/api/ready" >/dev/null 2>&1 && return 0
        kill -0 "$NODE_PID" 2>/dev/null || { echo "node $name did not start: $log" >&2; return 1; }
        sleep 0.5
    done
    echo "node $name did not answer on port $port within 120 s: $log" >&2
    return 1
}

# Stop every node start_node started: SIGTERM, then up to 30 s for each to hand its rooms
# over and exit; one still running after that is killed (and named on stderr).
stop_nodes() {
    local pid alive _
    [ "${#NODE_PIDS[@]}" -gt 0 ] || return 0
    for pid in "${NODE_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 1 60); do
        alive=0
        for pid in "${NODE_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.5
    done
    for pid in "${NODE_PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            echo "services: node pid $pid did not exit 30 s after SIGTERM: killed" >&2
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
    NODE_PIDS=()
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
