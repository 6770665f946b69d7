#!/usr/bin/env bash
# Stops the canal server started by startup.sh: SIGTERM, which runs the server's shutdown hook (stop accepting
# clients, stop the instances, flush their meta), then waits for the process to end and removes bin/canal.pid.
#
# Exit status: 0 when the server stopped by itself or was not running; 1 when it still ran after
# CANAL_STOP_TIMEOUT seconds (default 90) and had to be killed with SIGKILL (its last acks may not be flushed).
# A PID file naming a process that is not this installation's server (a stale file after a reboot) is removed
# and that process left alone.
set -euo pipefail

bin_dir=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$bin_dir/.." && pwd)
# shellcheck source=canal-env.sh
. "$bin_dir/canal-env.sh"
pid_file=$bin_dir/canal.pid
timeout=${CANAL_STOP_TIMEOUT:-90}

if [ ! -f "$pid_file" ]; then
    echo "canal server is not running: no $pid_file"
    exit 0
fi
pid=$(cat "$pid_file")
if ! canal_pid_is_ours "$pid" "$base"; then
    echo "canal server is not running: $pid_file names ${pid:-no process}, which is not a canal server of $base;" \
        "removing the file"
    rm -f "$pid_file"
    exit 0
fi

echo "stopping canal server PID $pid on $(hostname) (waiting up to $timeout s for it to flush and end)"
kill -TERM "$pid"
waited=0
killed=false
while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge "$timeout" ]; then
        echo "canal server PID $pid did not stop within $timeout s, killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
        killed=true
        while kill -0 "$pid" 2>/dev/null; do
            sleep 0.2
        done
        break
    fi
    sleep 1
    waited=$((waited + 1))
done
rm -f "$pid_file"
if $killed; then
    echo "canal server PID $pid was killed: acks after its last cursor flush may be delivered again; see $base/logs" >&2
    exit 1
fi
echo "canal server PID $pid stopped after $waited s; every cursor is flushed"
