#!/usr/bin/env bash
# Exactly once into Kafka through crashes (docs/mq.md): the packaged daemon in Kafka mode with
# canal.mq.transaction=true and its cursors in a real ZooKeeper, killed with SIGKILL and started again RESTARTS
# times (default 20) and killed with a standby taking over FAILOVERS times (default 5) while a writer commits rows;
# a read_committed consumer must hold every row exactly once, each key's versions in order. Against a private
# MariaDB, or the server CANAL_TEST_MYSQL_URL names; prints each kill and the totals. `mvn -B verify` runs 1 and 1.
#
#   bench/kafka-exactly-once.sh [RESTARTS [FAILOVERS]]
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in -h|--help) sed -n '2,8p' "$0"; exit 0 ;; esac
restarts=${1:-20}
failovers=${2:-5}
for n in "$restarts" "$failovers"; do
  case "$n" in ''|*[!0-9]*) echo "RESTARTS and FAILOVERS must be numbers, got: $n" >&2; exit 2 ;; esac
done
log="$(mktemp -t kafka-exactly-once.XXXXXX.log)"

echo "== $restarts restarts and $failovers failovers (log: $log)"
if ! mvn -B verify -pl canal-reliability -am -DskipUnitTests -Dit.test=KafkaExactlyOnceKillIT \
    -Dfailsafe.failIfNoSpecifiedTests=false "-Deos.restarts=$restarts" "-Deos.failovers=$failovers" \
    >"$log" 2>&1; then
  grep -E 'KafkaExactlyOnceKillIT:|FAIL|ERROR\]' "$log" | head -40
  echo "failed; see $log" >&2
  exit 1
fi
grep 'KafkaExactlyOnceKillIT:' "$log"
