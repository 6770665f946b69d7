#!/usr/bin/env bash
# Balanced placement behind ZooKeeper (see docs/high-availability.md, "Spreading destinations over servers"): builds
# the daemon's tarball and runs PlacementIT with D destinations over three daemons, each destination written to
# continuously and followed by an official cluster client; one daemon is killed with SIGKILL and started again.
# Prints the spread (client port: destinations) each time it changed, with the seconds since the start, every move
# with its time, and the rows lost and duplicated. `mvn -B verify` runs it once with 30 destinations. Each daemon
# holds a connection to the database per destination; the test database allows 1,000 connections.
#
#   bench/placement.sh [D]        D destinations, default 30
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/reliability-it.sh

case "${1:-}" in -h|--help) sed -n '2,9p' "$0"; exit 0 ;; esac
destinations=$(whole_number D "${1:-30}")
log="$(mktemp -t placement.XXXXXX.log)"

echo "== $destinations destinations over three daemons (log: $log)"
run_reliability_it PlacementIT "$log" "-Dplacement.destinations=$destinations"
grep -E 'PlacementIT - placement: (spread|even|three)' "$log" | sed -E 's/^([0-9:.]+) .* - /\1 /'
grep -E 'PlacementIT - placement: move at' "$log" | sed -E 's/.* - placement: move at //' | sort
grep -E 'PlacementIT - placement: move at' "$log" \
  | sed -E 's/.*took ([0-9]+) ms$/\1/' | sort -n \
  | awk '{ v[NR] = $1 } END { if (NR) printf "moves: %d, median %d ms, worst %d ms\n", NR, v[int((NR + 1) / 2)], v[NR] }'
grep -F 'spread over 3 daemons' canal-reliability/target/reliability-results.md || true
