#!/usr/bin/env bash
# The quiet-source trial of docs/operations.md ("Quiet sources") at full size: the packaged daemon reads a table
# while the source writes ROWS row changes only to another table, then idles IDLE_SECONDS with three binlog
# rotations and a purge of every older file; after each part the daemon is restarted and the binlog bytes it
# read to deliver the next selected row are reported (lines "RESULT | quiet source: ..."). mvn verify runs the
# same test with 5,000 row changes, 3 s idle and heartbeats every second.
#
#   bench/quiet-source.sh [ROWS] [IDLE_SECONDS] [HEARTBEAT_SECONDS]     defaults: 1000000 3600 15
#
# Runs against a private MariaDB started by the test fixture, or the server named by CANAL_TEST_MYSQL_URL
# (e.g. Oracle MySQL from real-mysql.sh). Takes IDLE_SECONDS plus a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
idle=${2:-3600}
heartbeat=${3:-15}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
mvn -B verify -pl canal-reliability -am -DskipUnitTests=true -Dit.test=QuietSourceIT \
  -Dfailsafe.failIfNoSpecifiedTests=false -Dquiet.rows="$rows" -Dquiet.idle.seconds="$idle" \
  -Dquiet.heartbeat.seconds="$heartbeat" | tee "$log"
grep -o 'RESULT | quiet source.*' "$log"
