#!/usr/bin/env bash
# One load run on a throwaway cluster: a fresh Redis and PostgreSQL, N nodes on loopback,
# `paiju load --urls` against them (with the decisions-lost count from PostgreSQL), then
# everything stopped and removed. Prints the load driver's JSON (one line) on stdout.
#
#   scripts/cluster-load.sh 1 40                 # one node, 40 tables
#   scripts/cluster-load.sh 2 40 table           # two nodes, each table on one node
#   scripts/cluster-load.sh 2 40 seat            # two nodes, seats spread (most relayed)
#   DRILL=1 KILL_AFTER=8 scripts/cluster-load.sh 2 30 seat   # failover: node a kill -9'd
#
# Environment: SECONDS_LIMIT (default 60), THINK (0.5), HANDS (1), NICE (10: every process
# of the run under nice; 0 for none), LOGS (default run/cluster-load/N-TABLES-PLACEMENT: the nodes' logs).
set -euo pipefail

cd "$(dirname "$0")/.."
N=${1:?number of nodes}
TABLES=${2:?tables}
PLACEMENT=${3:-seat}
BIN=${BIN:-.venv/bin}
NICE=${NICE:-10}
LOGS=${LOGS:-$PWD/run/cluster-load/$N-$TABLES-$PLACEMENT${DRILL:+-drill}}
SECONDS_LIMIT=${SECONDS_LIMIT:-60}
# the driver's clients all come from one address: lift the per-address limits
SETTINGS='{"bot_delay":0,"next_hand_delay":0,"create_rate":1000,"create_burst":1000,"message_rate":1000,"message_burst":1000,"lookup_rate":1000,"lookup_burst":1000}'
rm -rf "$LOGS" && mkdir -p "$LOGS"
RUN=(nice -n "$NICE")

. scripts/services.sh
services_init
start_postgres >&2
start_redis >&2

URLS=""
for i in $(seq 1 "$N"); do
    name=$(printf "\\x$(printf %x $((96 + i)))")
    port=$(free_port)
    start_node "$name" "$port" "$LOGS/node-$name.log"
    eval "PID_$name=$NODE_PID"
    URLS="${URLS:+$URLS,}ws://127.0.0.1:$port/ws"
done

ARGS=(--urls "$URLS" --tables "$TABLES" --placement "$PLACEMENT" --database "$PG_URL")
ARGS+=(--seconds "$SECONDS_LIMIT" --think "${THINK:-0.5}" --hands "${HANDS:-1}")
if [ "${DRILL:-0}" = 1 ]; then
    ARGS+=(--kill-pid "$PID_a" --kill-after "${KILL_AFTER:-8}")
fi
"${RUN[@]}" "$BIN/paiju" load "${ARGS[@]}"
