#!/usr/bin/env bash
# Kafka mode's cost with and without exactly-once delivery (canal.mq.transaction, docs/mq.md), in the same run:
# rows/s from the store into Kafka until the last END is acked and this JVM's CPU per row, flat and protobuf, each
# round without then with transactions; then the latency from a row's put until a read_committed consumer reads it,
# both ways. A single KRaft broker in a child JVM on the same machine unless -Dbench.bootstrap=host:port is given.
#
#   bench/kafka-mq.sh [ROWS [ROWS_PER_TX [ROUNDS]]] [-- JAVA_OPTIONS...]
#   e.g. bench/kafka-mq.sh 200000 10 3 -- -Dbench.latency.rate=200 -Dbench.latency.seconds=20 -Dkafka.linger.ms=5
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    ''|*[!0-9]*) echo "ROWS, ROWS_PER_TX and ROUNDS must be numbers, got: $1" >&2; exit 2 ;;
  esac
  args+=("$1"); shift
done
[ "${1:-}" = "--" ] && shift

cp_file="$(mktemp -t kafka-bench-cp.XXXXXX)"
trap 'rm -f "$cp_file"' EXIT
mvn -B -q -pl canal-connector-kafka -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test
java -cp "canal-connector-kafka/target/test-classes:canal-connector-kafka/target/classes:$(cat "$cp_file")" \
  "$@" dev.canal.connector.kafka.bench.KafkaMqBench "${args[@]}"
