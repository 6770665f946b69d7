#!/usr/bin/env bash
# The catch-up benchmark (see bench/README.md): builds canal-bench, starts a private MariaDB through the test
# fixture (or uses CANAL_TEST_MYSQL_URL), loads the workload and measures each stage. Not part of CI.
#
#   bench/run.sh [--rows N] [--runs K]
#                [--only raw|decode|entries|consumers|client|canal|snapshot|destinations|steady|wide]
#                [--shape standard|wide-text] [--mix I:U:D] [--batch-rows N] [--client-batches 1000,100]
#                [--snapshot-chunk N] [--quick true] [--out FILE]   (more options: bench/README.md)
#   snapshot throughput (rows/s of an initial snapshot): bench/run.sh --rows 200000 --runs 1 --only snapshot
#   quick check: bench/run.sh --rows 200000 --runs 1
#   head to head with the real Canal 1.1.7: bench/run.sh --rows 100000 --runs 1 --only client,canal
#   the scale questions, small: bench/run.sh --only destinations,steady,wide --quick true --shape wide-text
#
# BENCH_SKIP_BUILD=1 reuses the last build; BENCH_STAGE_JAVA_OPTS replaces the stage JVMs' options (by default
# those bin/startup.sh gives the server), BENCH_STAGE_EXTRA_JAVA_OPTS adds to them; JAVA_OPTS adds options to the
# driver JVM.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in -h|--help) sed -n '2,16p' "$0"; exit 0 ;; esac

have_mariadbd() { command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; }
if [ -z "${CANAL_TEST_MYSQL_URL:-}" ] && ! have_mariadbd; then
  echo "== installing mariadb-server (the benchmark database)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mariadb-server >/dev/null
fi
if ! command -v mvn >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq maven >/dev/null
fi

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  echo "== building canal-bench, the modules it drives and canal-reference (the real Canal 1.1.7)"
  mvn -B -q -pl canal-bench -am package -DskipTests
fi

# shellcheck source=../bin/canal-env.sh
. bin/canal-env.sh
# the server's JVM options as bin/startup.sh sets them (heap capped at 384 MiB; the decode and entries stages,
# which hold the whole binlog or every received entry in memory, get a larger one from the driver)
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
heap_mb=$(( mem_mb / 2 )); [ "$heap_mb" -lt 256 ] && heap_mb=256; [ "$heap_mb" -gt 384 ] && heap_mb=384
stage_opts=${BENCH_STAGE_JAVA_OPTS:-"-server -Xms128m -Xmx${heap_mb}m -Xss1m -XX:+UseParallelGC $CANAL_JIT_OPTS \
-Duser.timezone=UTC -Dfile.encoding=UTF-8"}
stage_opts="$stage_opts ${BENCH_STAGE_EXTRA_JAVA_OPTS:-}"

mkdir -p bench/results
java=$(canal_java) || exit 1
# the official client's classes are protobuf 3 gencode: its warning says nothing about us
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options on purpose
exec "$java" -Xmx4g -Duser.timezone=UTC -Dlogback.configurationFile=bench-logback.xml -Dcom.google.protobuf.use_unsafe_pre22_gencode=true ${JAVA_OPTS:-} "-Dbench.stageJavaOpts=$stage_opts" \
  -cp "canal-bench/target/canal-bench.jar:canal-bench/target/lib/*" dev.canal.bench.BenchMain "$@"
