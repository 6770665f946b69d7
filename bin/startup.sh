#!/usr/bin/env bash
# Starts the canal server.
#
#   startup.sh [--foreground] [local | <canal.properties file> | -Dcanal.conf=<file>] [debug <port>]
#
# Without --foreground the server runs as a daemon: its PID goes to bin/canal.pid and its stdout/stderr to
# logs/canal/canal_stdout.log; a second start is refused while that PID runs. With --foreground it runs
# attached to this shell, and this script exits with the server's status.
# Extra JVM options may be given in JAVA_OPTS; the java binary in JAVA, else JAVA_HOME, else the PATH.
set -euo pipefail

bin_dir=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$bin_dir/.." && pwd)
export LANG=en_US.UTF-8
export BASE=$base
pid_file=$bin_dir/canal.pid
main_class=dev.canal.deployer.CanalLauncher

usage() {
    echo "usage: $0 [--foreground] [local | <canal.properties> | -Dcanal.conf=<file>] [debug <port>]" >&2
    exit 1
}

foreground=false
conf=$base/conf/canal.properties
debug_opts=()
args=()
for arg in "$@"; do
    case $arg in
        --foreground) foreground=true ;;
        -Dcanal.conf=*) conf=${arg#-Dcanal.conf=} ;;
        *) args+=("$arg") ;;
    esac
done
set -- "${args[@]+"${args[@]}"}"
while [ $# -gt 0 ]; do
    case $1 in
        local) conf=$base/conf/canal_local.properties; shift ;;
        debug)
            [ $# -ge 2 ] || usage
            debug_opts=("-agentlib:jdwp=transport=dt_socket,address=$2,server=y,suspend=n")
            shift 2 ;;
        -*) usage ;;
        *) conf=$1; shift ;;
    esac
done

if [ -f "$pid_file" ]; then
    old_pid=$(cat "$pid_file")
    if [ -n "$old_pid" ] && kill -0 "$old_pid" 2>/dev/null; then
        echo "found canal.pid (PID $old_pid is running), Please run stop.sh first, then startup.sh" >&2
        exit 2
    fi
    echo "removing stale $pid_file (PID ${old_pid:-none} is not running)"
    rm -f "$pid_file"
fi

case $conf in
    classpath:*) ;;
    *)
        [ -f "$conf" ] || { echo "canal configuration $conf not found" >&2; exit 1; }
        conf=$(cd "$(dirname "$conf")" && pwd)/$(basename "$conf") ;;
esac
logback=$base/conf/logback.xml
[ -f "$logback" ] || { echo "logging configuration $logback not found" >&2; exit 1; }

if [ -n "${JAVA:-}" ]; then
    java=$JAVA
elif [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    java=$JAVA_HOME/bin/java
elif command -v java >/dev/null 2>&1; then
    java=$(command -v java)
else
    echo "no java found: set JAVA or JAVA_HOME" >&2
    exit 1
fi

# Heap: half of the memory this process may use (the cgroup limit in a container, else the machine's), at least
# 256 MiB and at most 384 MiB: every buffer of the pipeline is bounded (the store by
# canal.instance.memory.buffer.size x memunit in the shipped MEMSIZE mode, the parser ring by
# parallelBufferSize), so the server needs far less than Canal's 2-3 GiB and stays within 512 MiB of resident
# memory. CANAL_HEAP_MB overrides it: for very large rows, many destinations, or the ITEMSIZE mode, whose store
# holds buffer.size entries whatever their size (16384 entries of tens of KiB each are several hundred MiB).
# The initial heap is 128 MiB.
memory_mb() {
    local limit
    for f in /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes; do
        if [ -r "$f" ]; then
            limit=$(cat "$f")
            if [ "$limit" != max ] && [ "$limit" -lt $((1 << 50)) ] 2>/dev/null; then
                echo $((limit / 1024 / 1024))
                return
            fi
        fi
    done
    awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo 2>/dev/null || echo 4096
}
heap_mb=$(( $(memory_mb) / 2 ))
[ "$heap_mb" -lt 256 ] && heap_mb=256
[ "$heap_mb" -gt 384 ] && heap_mb=384
heap_mb=${CANAL_HEAP_MB:-$heap_mb}

# Collector: the parallel one. On a small heap it gave the catch-up benchmark about 10% more rows/s to the
# official client than G1 and about 40% less resident memory (docs/performance.md); its
# pauses on a heap of a few hundred MiB are short. A collector chosen in JAVA_OPTS replaces it.
gc_opts=(-XX:+UseParallelGC)
case " ${JAVA_OPTS:-} " in
    *" -XX:+Use"*"GC "*) gc_opts=() ;;
esac

mkdir -p "$base/logs/canal"
java_opts=(
    -server -Xms128m "-Xmx${heap_mb}m" -Xss1m
    "${gc_opts[@]+"${gc_opts[@]}"}"
    -XX:-OmitStackTraceInFastThrow -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$base/logs"
    "-Xlog:gc*:file=$base/logs/canal/gc.log:time:filecount=5,filesize=32M"
    -Djava.awt.headless=true -Djava.net.preferIPv4Stack=false -Dfile.encoding=UTF-8
    -DappName=otter-canal "-Dlogback.configurationFile=$logback" "-Dcanal.conf=$conf"
)
# shellcheck disable=SC2206 # JAVA_OPTS is a list of options on purpose
extra_opts=(${JAVA_OPTS:-})
classpath=$base/conf:$base/lib/*

# relative paths in the configuration (../conf, ../logs) are relative to bin/, as in Canal
cd "$bin_dir"
echo "starting canal server: $java ${java_opts[*]} ${extra_opts[*]+${extra_opts[*]}} ${debug_opts[*]+${debug_opts[*]}} $main_class"

if $foreground; then
    "$java" "${java_opts[@]}" "${extra_opts[@]+"${extra_opts[@]}"}" "${debug_opts[@]+"${debug_opts[@]}"}" \
        -classpath "$classpath" "$main_class" &
    child=$!
    echo "$child" > "$pid_file"
    trap 'kill -TERM "$child" 2>/dev/null || true' TERM INT
    status=0
    while kill -0 "$child" 2>/dev/null; do
        wait "$child" && status=0 || status=$?
    done
    rm -f "$pid_file"
    exit "$status"
fi

nohup "$java" "${java_opts[@]}" "${extra_opts[@]+"${extra_opts[@]}"}" "${debug_opts[@]+"${debug_opts[@]}"}" \
    -classpath "$classpath" "$main_class" >> "$base/logs/canal/canal_stdout.log" 2>&1 &
echo $! > "$pid_file"
echo "canal server started, PID $(cat "$pid_file"); logs in $base/logs"
