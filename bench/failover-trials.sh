#!/usr/bin/env bash
# Failover time of a destination behind ZooKeeper, as the official Canal cluster client sees it (see
# docs/high-availability.md): two canal servers in JVMs of their own over a real ZooKeeper and a private MariaDB
# (or CANAL_TEST_MYSQL_URL), the active one killed with SIGKILL N times while rows stream; prints each trial and
# the median and worst time from the kill to the client's first new row. Not part of CI.
#
#   bench/failover-trials.sh [N]        N trials, default 10
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in -h|--help) sed -n '2,7p' "$0"; exit 0 ;; esac
trials="${1:-10}"
log="$(mktemp -t failover-trials.XXXXXX.log)"

echo "== $trials kill -9 trials (log: $log)"
if ! mvn -B -pl canal-server -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test='HaFailoverIT#killedActiveServerReadingMySql*' -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dha.kill.trials="$trials" >"$log" 2>&1; then
  grep -E 'HaFailoverIT:|FAIL|ERROR\]' "$log" | head -40
  echo "failed; see $log" >&2
  exit 1
fi
grep 'HaFailoverIT:' "$log"
