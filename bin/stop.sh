#!/usr/bin/env bash
# Stops the canal server started by startup.sh: SIGTERM, which runs the server's
# shutdown hook (stop accepting clients, stop the instances, flush their meta), then waits for the process
# to end and removes bin/canal.pid. Should it still run after CANAL_STOP_TIMEOUT seconds (default 90), it is
# killed with SIGKILL.
set -euo pipefail

bin_dir=$(cd "$(dirname "$0")" && pwd)
pid_file=$bin_dir/canal.pid
timeout=${CANAL_STOP_TIMEOUT:-90}

if [ ! -f "$pid_file" ]; then
    echo "canal is not running. exists"
    exit 0
fi
pid=$(cat "$pid_file")
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
    echo "canal is not running (stale pid file), removing $pid_file"
    rm -f "$pid_file"
    exit 0
fi

echo -e "$(hostname): stopping canal $pid ... "
kill -TERM "$pid"
waited=0
while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge "$timeout" ]; then
        echo "canal $pid did not stop within $timeout s, killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
        break
    fi
    sleep 1
    waited=$((waited + 1))
done
rm -f "$pid_file"
echo "Oook! cost:$waited"
