#!/usr/bin/env bash
# make cluster: Redis, PostgreSQL and two paiju nodes on loopback, for trying the cluster.
# Everything listens on 127.0.0.1; logs go to run/cluster/ (kept), the database is
# thrown away when you press Ctrl-C.
#
#   scripts/cluster.sh                 # nodes a and b on ports 8001 and 8002
#   NODES="a b c" PORT0=9001 scripts/cluster.sh
#   SETTINGS='{"bot_delay": 0}' scripts/cluster.sh
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
NODES=${NODES:-a b}
PORT0=${PORT0:-8001}
LOGS=$PWD/run/cluster
rm -rf "$LOGS" && mkdir -p "$LOGS"

. scripts/services.sh
SERVICES_WORK=$(mktemp -d /tmp/paiju-cluster.XXXXXX)
services_init
SERVICES_MISSING=0
start_postgres
start_redis
PIDS=()
stop_all() {
    trap - EXIT INT TERM
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    # a node hands its rooms over before it exits; one that hangs is killed after 20 s
    for _ in $(seq 1 40); do
        alive=0
        for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.5
    done
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    cp "$SERVICES_WORK"/*.log "$LOGS"/ 2>/dev/null || true
    services_stop
}
trap stop_all EXIT INT TERM

port=$PORT0
for node in $NODES; do
    "$BIN/paiju" serve --host 127.0.0.1 --port "$port" --node "$node" --redis "$REDIS_URL" \
        --database "$PG_URL" ${SETTINGS:+--settings "$SETTINGS"} >"$LOGS/node-$node.log" 2>&1 &
    PIDS+=($!)
    echo "$!" >"$LOGS/node-$node.pid"
    # one at a time: the first creates the tables, the others find them
    for _ in $(seq 1 120); do
        curl -sf "http://127.0.0.1:$port/api/ready" >/dev/null 2>&1 && break
        kill -0 "$!" 2>/dev/null || { echo "node $node did not start: run/cluster/node-$node.log" >&2; exit 1; }
        sleep 0.5
    done
    echo "node $node: http://127.0.0.1:$port/   (log: run/cluster/node-$node.log, pid $!)"
    port=$((port + 1))
done
echo "redis:      $REDIS_URL"
echo "postgresql: ${PG_URL/+asyncpg/}"
echo "cluster state: curl http://127.0.0.1:$PORT0/api/cluster ; Ctrl-C stops everything"
echo "$REDIS_URL" >"$LOGS/redis.url"
echo "$PG_URL" >"$LOGS/postgres.url"
# kill -9 "$(cat run/cluster/node-a.pid)" in another terminal is the failover drill
wait
