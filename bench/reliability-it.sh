# Sourced by the bench scripts that run one scenario of canal-reliability: builds the daemon's tarball and runs the
# scenario's IT with the given -D options, its output in a log file; on failure shows the scenario's lines and
# the errors and exits.
#
#   run_reliability_it IT LOG [-Dname=value...]
#   n=$(whole_number NAME VALUE)     VALUE, or a message naming NAME and exit 2 when it is no whole number
whole_number() {
  case "$2" in ''|*[!0-9]*) echo "$1 must be a number, got: $2" >&2; exit 2 ;; esac
  echo "$2"
}

run_reliability_it() {
  local it="$1" log="$2"
  shift 2
  if ! mvn -B -pl canal-reliability -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
      "-Dit.test=$it" -Dfailsafe.failIfNoSpecifiedTests=false -DskipSourceRestartIT=true "$@" >"$log" 2>&1; then
    grep -E "$it -|FAIL|ERROR\]" "$log" | head -60
    echo "failed; see $log" >&2
    exit 1
  fi
}
