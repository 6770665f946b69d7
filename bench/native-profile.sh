#!/usr/bin/env bash
# Where the server's CPU goes below the view of Java's own profilers: runs the catch-up benchmark (bench/run.sh,
# by default the head to head's million-row client stage), records every server JVM with Linux perf from the
# moment its binlog reader starts to its exit, and prints, per run, each thread group's share of the samples
# split into the kernel, the interpreter, compiled Java code, the JVM's own runtime (the JIT compiler, the
# collector, class loading) and other native code. Needs perf and the right to profile another process (root,
# or kernel.perf_event_paranoid at most 1). Not part of CI; docs/performance.md quotes its figures.
#
#   bench/native-profile.sh                       # --rows 1000000 --runs 1 --only client --shape wide-text --client-batches 1000
#   bench/native-profile.sh --rows 200000 --runs 1 --only client --shape wide-text   # any bench/run.sh options
#
# The perf data stays in bench/results/perf (one file per server JVM); `perf report -i FILE --sort comm,dso,sym`
# reads it, method names included (the JVMs write /tmp/perf-PID.map at exit).
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in -h|--help) sed -n '2,13p' "$0"; exit 0 ;; esac
command -v perf >/dev/null 2>&1 || { echo "perf is not installed (Debian: apt-get install linux-perf)" >&2; exit 1; }
[ $# -gt 0 ] || set -- --rows 1000000 --runs 1 --only client --shape wide-text --client-batches 1000

out=bench/results/perf
mkdir -p "$out"
rm -f "$out"/*.data "$out/recorders"

# Starts perf on each server stage JVM once its binlog reader thread (parser-bench) exists: the JVM's own
# start-up, which the benchmark's CPU figures leave out too, stays out of the recording.
record_servers() {
  local seen=" " pid
  while true; do
    for pid in $(pgrep -f 'dev\.canal\.bench\.StageMain server' || true); do
      case "$seen" in *" $pid "*) continue ;; esac
      if grep -qx 'parser-bench' /proc/"$pid"/task/*/comm 2>/dev/null; then
        seen="$seen$pid "
        perf record -q -F 999 -g -p "$pid" -o "$out/$(date +%H%M%S)-$pid.data" >/dev/null 2>&1 &
        echo $! >>"$out/recorders"
      fi
    done
    sleep 0.2
  done
}
record_servers &
recorder=$!
trap 'kill "$recorder" 2>/dev/null || true' EXIT

BENCH_STAGE_EXTRA_JAVA_OPTS="${BENCH_STAGE_EXTRA_JAVA_OPTS:-} -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
  bench/run.sh "$@"
kill "$recorder" 2>/dev/null || true
# each perf ends when its JVM does, then writes its file out
for pid in $(cat "$out/recorders" 2>/dev/null); do
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
done

# thread group (by the 15 characters of its name Linux keeps) x kind of code, in % of the run's samples
run=0
for data in "$out"/*.data; do
  run=$((run + 1))
  echo
  echo "server JVM $run of the benchmark's output ($data), % of its samples:"
  perf report -i "$data" --no-children --sort comm,dso,sym -g none --stdio -t $'\t' 2>/dev/null | awk -F'\t' '
    /^#/ || NF < 4 { next }
    {
      pct = $1; sub(/%.*/, "", pct)
      comm = $2; dso = $3; sym = $4; gsub(/ +$/, "", comm); gsub(/ +$/, "", dso)
      if (comm ~ /^parser-bench-st/) group = "parser stages"
      else if (comm ~ /^parser-bench/) group = "binlog reader"
      else if (comm ~ /^canal-server-io/) group = "Netty I/O"
      else if (comm ~ /^canal-server-se/) group = "sessions"
      else if (comm ~ /^C[12] CompilerThre/) group = "JIT compiler"
      else if (comm ~ /^GC Thread/ || comm == "VM Thread") group = "collector, VM"
      else group = "other"
      if (dso == "[kernel.kallsyms]") kind = "kernel"
      else if (sym ~ /\] Interpreter/) kind = "interpreter"
      else if (dso ~ /^\[JIT\]/) kind = "compiled Java"
      else if (dso == "libjvm.so") kind = "JVM runtime"
      else kind = "other native"
      share[group, kind] += pct; groupTotal[group] += pct; kindTotal[kind] += pct
    }
    END {
      split("binlog reader|parser stages|Netty I/O|sessions|JIT compiler|collector, VM|other", groups, "|")
      split("compiled Java|interpreter|JVM runtime|other native|kernel", kinds, "|")
      printf "| %-14s |", "thread group"
      for (k = 1; k <= 5; k++) printf " %s |", kinds[k]
      printf " all |\n|---|---:|---:|---:|---:|---:|---:|\n"
      for (g = 1; g <= 7; g++) {
        printf "| %-14s |", groups[g]
        for (k = 1; k <= 5; k++) printf " %.1f |", share[groups[g], kinds[k]]
        printf " %.1f |\n", groupTotal[groups[g]]
      }
      printf "| %-14s |", "all"
      for (k = 1; k <= 5; k++) printf " %.1f |", kindTotal[kinds[k]]
      printf " 100 |\n"
    }'
done
