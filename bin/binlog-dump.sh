#!/usr/bin/env bash
# binlog-dump.sh [--format text|json] FILE...
#
# Decodes local MySQL/MariaDB binlog or relay-log files offline with this project's decoder and prints every
# event on one line (type, file:position, timestamp, fields; rows events with table and values).
# Exits 1 naming the file and offset at the first event it cannot decode.
#
# Java: $JAVA, else $JAVA_HOME/bin/java, else java on the PATH.
# Class path: lib/*.jar next to this bin/ directory when packaged; otherwise canal-binlog's classes and its
# dependencies from the source tree, (re)built with Maven when missing or older than the sources.
set -euo pipefail

bin_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home_dir="$(dirname "$bin_dir")"
# shellcheck source=canal-env.sh
. "$bin_dir/canal-env.sh"
java=$(canal_java) || exit 1

if [ -d "$home_dir/lib" ]; then
  classpath="$home_dir/lib/*"
else
  module="$home_dir/canal-binlog"
  classes="$module/target/classes"
  cp_file="$module/target/binlog-dump.classpath"
  if [ ! -f "$cp_file" ] || [ ! -d "$classes" ] || [ "$module/pom.xml" -nt "$cp_file" ] \
      || [ -n "$(find "$module/src/main" -newer "$cp_file" -print -quit)" ]; then
    echo "binlog-dump: building canal-binlog (one-time, cached in $module/target)" >&2
    mvn -q -B -Dstyle.color=never -f "$module/pom.xml" compile dependency:build-classpath \
      -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=runtime >&2
    touch "$cp_file"
  fi
  classpath="$classes:$(cat "$cp_file")"
fi

# The decoder logs through SLF4J; without a provider on this class path its warnings would only be noise.
exec "$java" ${JAVA_OPTS:-} -Dslf4j.internal.verbosity=ERROR -cp "$classpath" dev.canal.binlog.tool.BinlogDump "$@"
