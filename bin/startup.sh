#!/usr/bin/env bash
# Starts the canal server.
#
#   startup.sh [--foreground] [local | <canal.properties file> | -Dcanal.conf=<file>] [debug <port>]
#
# Without --foreground the server runs as a daemon: its PID goes to bin/canal.pid and its stdout/stderr to
# logs/canal/canal_stdout.log. The script then waits until the server reports it started (the line
# "canal server started" in logs/canal/canal.log) and exits 0, or until it ends, when it prints the end of
# its logs and exits 1; after CANAL_START_TIMEOUT seconds (default 120) with neither, it exits 3 and leaves
# the server running. A second start is refused (exit 2) while bin/canal.pid names this installation's server.
#
# With --foreground (systemd, containers) it runs attached to this shell, passes SIGTERM and SIGINT on to the
# server, and exits with the server's status.
#
# Files the server writes (meta.dat, the schema history, logs, bin/canal.pid) are readable by its own user only:
# the script sets umask 077, or CANAL_UMASK when given (e.g. 027 to let the group read them).
#
# local: under canal-admin, with conf/canal_local.properties (docs/admin.md).
# Java: $JAVA, else $JAVA_HOME/bin/java, else java on the PATH; Java 17 or newer. Extra JVM options go in
# JAVA_OPTS, the heap size in CANAL_HEAP_MB (see "JVM options" below).
set -euo pipefail
umask "${CANAL_UMASK:-077}"

bin_dir=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$bin_dir/.." && pwd)
# shellcheck source=canal-env.sh
. "$bin_dir/canal-env.sh"
export LANG=en_US.UTF-8
export BASE=$base
pid_file=$bin_dir/canal.pid
server_log=$base/logs/canal/canal.log
stdout_log=$base/logs/canal/canal_stdout.log
start_timeout=${CANAL_START_TIMEOUT:-120}

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
    if canal_pid_is_ours "$old_pid" "$base"; then
        echo "canal server is already running (PID $old_pid, in $pid_file): run bin/stop.sh first, or bin/restart.sh" >&2
        exit 2
    fi
    echo "removing stale $pid_file (PID ${old_pid:-none} is not a canal server of $base)"
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

java=$(canal_java) || exit 1
canal_require_java "$java" || exit 1

# ---- JVM options ---------------------------------------------------------------------------------------------
# Every option the server JVM starts with is decided in this section; JAVA_OPTS comes after them, so an option
# given there wins (a collector chosen there replaces the default one).
#
# Heap: half of the memory this process may use (the cgroup limit in a container, else the machine's), at least
# 256 MiB and at most 384 MiB: every buffer of the pipeline is bounded (the store by
# canal.instance.memory.buffer.size x memunit in the shipped MEMSIZE mode, the parser ring by
# parallelBufferSize), so the server needs far less than Canal's 2-3 GiB and stays within 512 MiB of resident
# memory; plus 8 MiB per destination (below). CANAL_HEAP_MB overrides it: for very large rows, or the ITEMSIZE mode, whose store
# holds buffer.size entries whatever their size (16384 entries of tens of KiB each are several hundred MiB).
# The initial heap is 128 MiB. docs/operations.md, heap sizing.
memory_mb() {
    local limit f
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
# ... plus 8 MiB per configured destination: room for its parser's ring and a client's batch while its clients
# lag (the stores share a quarter of the heap among them; docs/performance.md, "Many destinations"). The
# destinations are those canal.destinations lists or the folders beside canal.properties holding an
# instance.properties, whichever are more.
destination_count() {
    local listed=0 scanned=0 dir
    case $conf in classpath:*) echo 0; return ;; esac
    listed=$(sed -n 's/^[[:space:]]*canal\.destinations[[:space:]]*[=:][[:space:]]*//p' "$conf" 2>/dev/null \
        | tail -n 1 | tr ',' '\n' | grep -c '[^[:space:]]' || true)
    dir=$(dirname "$conf")
    scanned=$(find "$dir" -mindepth 2 -maxdepth 2 -name instance.properties 2>/dev/null | wc -l)
    echo $(( listed > scanned ? listed : scanned ))
}
heap_mb=$(( heap_mb + 8 * $(destination_count) ))
heap_mb=${CANAL_HEAP_MB:-$heap_mb}

# Collector: the parallel one. On a small heap it gave the catch-up benchmark about 10% more rows/s to the
# official client than G1 and about 40% less resident memory (docs/performance.md); its pauses on a heap of a
# few hundred MiB are short.
gc_opts=(-XX:+UseParallelGC)
case " ${JAVA_OPTS:-} " in
    *" -XX:+Use"*"GC "*) gc_opts=() ;;
esac

# The JIT's options (bin/canal-env.sh), each unless JAVA_OPTS sets that option itself.
jit_opts=()
for option in $CANAL_JIT_OPTS; do
    case " ${JAVA_OPTS:-} " in
        *" ${option%%=*}="*) ;;
        *) jit_opts+=("$option") ;;
    esac
done

# Class-data sharing: the first start archives the classes the server loaded when it stops
# (-XX:ArchiveClassesAtExit, into logs/canal.jsa); later starts map that archive instead of loading, parsing and
# verifying those classes again (docs/performance.md, "Start-up"). The archive holds for one Java and one set of
# jars: a stamp of both is kept beside it, and a start that finds another stamp, or no archive (a server that was
# killed writes none), archives anew. A Java that cannot archive (the option is tried on "java -version" first)
# or cannot use the archive starts without it. CANAL_CDS=false turns it off. The archive needs the jars before any
# directory on the class path, hence lib/ before conf/ (no jar holds a file of conf/'s names).
classpath=$base/lib/*:$base/conf
cds_stamp() {
    local home
    home=$(dirname "$(dirname "$(readlink -f "$java")")")
    { echo "$home"; stat -L -c '%s %Y' "$home/lib/modules" 2>/dev/null; ls -l --time-style=+%s "$base/lib"; } \
        | cksum
}
cds_opts=()
# (a system whose tools cannot make the stamp starts without the archive)
if [ "${CANAL_CDS:-true}" = true ] && stamp=$(cds_stamp 2>/dev/null); then
    cds_archive=$base/logs/canal.jsa
    mkdir -p "$base/logs"
    if [ -f "$cds_archive" ] && [ "$(cat "$cds_archive.stamp" 2>/dev/null)" = "$stamp" ]; then
        cds_opts=("-XX:SharedArchiveFile=$cds_archive")
    else
        rm -f "$cds_archive" "$cds_archive.stamp"
        if "$java" "-XX:ArchiveClassesAtExit=$cds_archive" -classpath "$classpath" -version >/dev/null 2>&1; then
            rm -f "$cds_archive"
            echo "$stamp" >"$cds_archive.stamp"
            cds_opts=("-XX:ArchiveClassesAtExit=$cds_archive")
        fi
    fi
    # the archive's own notes (classes it cannot hold, an archive it cannot use) are no news for the operator
    [ ${#cds_opts[@]} -eq 0 ] || cds_opts+=(-Xlog:cds=off -Xlog:cds+dynamic=off)
fi

java_opts=(
    -server -Xms128m "-Xmx${heap_mb}m" -Xss1m
    "${gc_opts[@]+"${gc_opts[@]}"}"
    "${jit_opts[@]+"${jit_opts[@]}"}"
    "${cds_opts[@]+"${cds_opts[@]}"}"
    -XX:-OmitStackTraceInFastThrow -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$base/logs"
    "-Xlog:gc*:file=$base/logs/canal/gc.log:time:filecount=5,filesize=32M"
    -Djava.awt.headless=true -Djava.net.preferIPv4Stack=false -Dfile.encoding=UTF-8
    -DappName=otter-canal "-Dlogback.configurationFile=$logback" "-Dcanal.conf=$conf"
    # RocketMQ mode: the RocketMQ client's own log, logs/canal/rocketmq_client.log as in Canal (not ~/logs)
    "-Drocketmq.log.root=$base/logs/canal"
)
# shellcheck disable=SC2206 # JAVA_OPTS is a list of options on purpose
extra_opts=(${JAVA_OPTS:-})
# ---- end of JVM options --------------------------------------------------------------------------------------

command=("$java" "${java_opts[@]}" "${extra_opts[@]+"${extra_opts[@]}"}" "${debug_opts[@]+"${debug_opts[@]}"}"
    -classpath "$classpath" "$CANAL_MAIN_CLASS")

# The command as printed: a value of a -D option whose name speaks of a secret is masked.
printable() {
    local word out=()
    for word in "$@"; do
        case ${word,,} in
            -d*passw*=* | -d*secret*=* | -d*token*=* | -d*credential*=*) out+=("${word%%=*}=******") ;;
            *) out+=("$word") ;;
        esac
    done
    echo "${out[*]}"
}

mkdir -p "$base/logs/canal"
# relative paths in the configuration (../conf, ../logs) are relative to bin/, as in Canal
cd "$bin_dir"
echo "starting canal server: $(printable "${command[@]}")"

if $foreground; then
    "${command[@]}" &
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

size_of() {
    if [ -f "$1" ]; then wc -c <"$1"; else echo 0; fi
}

# What a log gained since it was $2 bytes long (all of it when it was rolled over meanwhile).
written_since() {
    local file=$1 offset=$2
    [ -f "$file" ] || return 0
    if [ "$(size_of "$file")" -lt "$offset" ]; then
        cat "$file"
    else
        tail -c +"$((offset + 1))" "$file"
    fi
}

print_log_tail() {
    local file=$1 offset=$2 text
    text=$(written_since "$file" "$offset" | tail -n 40)
    [ -n "$text" ] || return 0
    echo "---- end of $file" >&2
    echo "$text" >&2
}

# What the server said of each destination's source (streaming, or why not) and of unknown keys, without the log's
# timestamps: the start is not silent about a destination that cannot read its source.
print_start_report() {
    written_since "$server_log" "$server_log_offset" \
        | sed -n -e 's/^.* dev\.canal\.deployer\.SourceReport - //p' \
                 -e 's/^.* dev\.canal\.deployer\.DestinationRegistry - \(.*unknown key .*\)$/\1/p'
}

server_log_offset=$(size_of "$server_log")
stdout_log_offset=$(size_of "$stdout_log")
nohup "${command[@]}" >> "$stdout_log" 2>&1 &
pid=$!
echo "$pid" > "$pid_file"
echo "canal server PID $pid: waiting up to $start_timeout s for it to start"

ticks=0
while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
        status=0
        wait "$pid" || status=$?
        rm -f "$pid_file"
        print_log_tail "$stdout_log" "$stdout_log_offset"
        print_log_tail "$server_log" "$server_log_offset"
        # the server's own one-line reason, last, where the eye lands
        reason=$(written_since "$stdout_log" "$stdout_log_offset" | grep -m 1 "^canal server not started: " || true)
        echo "canal server failed to start (exit status $status)${reason:+: ${reason#canal server not started: }}" >&2
        echo "logs in $base/logs" >&2
        exit 1
    fi
    started=$(written_since "$server_log" "$server_log_offset" | grep -E -m 1 "canal server (started|running, but)" || true)
    case $started in
        *"canal server started"*)
            print_start_report
            echo "canal server started, PID $pid; logs in $base/logs"
            exit 0 ;;
        ?*)
            # the server runs and serves its other destinations: not a failed start, but worth the operator's eye
            print_start_report
            echo "canal server started, PID $pid, but some destinations did not; logs in $base/logs" >&2
            print_log_tail "$server_log" "$server_log_offset"
            exit 0 ;;
    esac
    if [ "$ticks" -ge $((start_timeout * 2)) ]; then
        echo "canal server PID $pid has not reported started within $start_timeout s; it keeps running" \
            "(bin/stop.sh stops it); logs in $base/logs" >&2
        print_log_tail "$server_log" "$server_log_offset"
        exit 3
    fi
    sleep 0.5
    ticks=$((ticks + 1))
done
