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
SERVICES_LOGS=$LOGS
services_init
start_postgres
start_redis

port=$PORT0
for node in $NODES; do
    # one at a time: the first creates the tables, the others find them
    start_node "$node" "$port" "$LOGS/node-$node.log"
    echo "$NODE_PID" >"$LOGS/node-$node.pid"
    echo "node $node: http://127.0.0.1:$port/   (log: run/cluster/node-$node.log, pid $NODE_PID)"
    port=$((port + 1))
done
echo "redis:      $REDIS_URL"
echo "postgresql: ${PG_URL/+asyncpg/}"
echo "cluster state: curl http://127.0.0.1:$PORT0/api/cluster ; Ctrl-C stops everything"
echo "$REDIS_URL" >"$LOGS/redis.url"
echo "$PG_URL" >"$LOGS/postgres.url"
# kill -9 "$(cat run/cluster/node-a.pid)" in another terminal is the failover drill
wait
