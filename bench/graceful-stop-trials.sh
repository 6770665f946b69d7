#!/usr/bin/env bash
# Graceful stops behind ZooKeeper, as the official Canal cluster client sees them (see docs/high-availability.md,
# "Stopping a server"): builds the daemon's tarball and runs GracefulHandoverIT with N stops of the serving daemon
# (bin/stop.sh) while rows stream; prints each trial, the median and worst time from the stop to the client's first
# row from the other daemon, and the rows lost and duplicated. Not part of CI (`mvn -B verify` runs three stops).
#
#   bench/graceful-stop-trials.sh [N]        N stops, default 10
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/reliability-it.sh

case "${1:-}" in -h|--help) sed -n '2,7p' "$0"; exit 0 ;; esac
trials=$(whole_number N "${1:-10}")
log="$(mktemp -t graceful-stop-trials.XXXXXX.log)"

echo "== $trials graceful stops (log: $log)"
run_reliability_it GracefulHandoverIT "$log" "-Dreliability.trials=$trials"
grep -E 'GracefulHandoverIT - (trial|handover)' "$log"
grep -F 'destination handed over' canal-reliability/target/reliability-results.md || true
