#!/usr/bin/env bash
# The fault trials of docs/reliability.md, repeated: builds the daemon's tarball and runs every trial of
# canal-reliability TRIALS times (default 5) against a private MariaDB, or the server CANAL_TEST_MYSQL_URL names.
# `mvn -B verify` runs one trial of each.
#
#   bench/reliability.sh [TRIALS]
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in -h|--help) sed -n '2,6p' "$0"; exit 0 ;; esac
trials=${1:-5}
case "$trials" in ''|*[!0-9]*) echo "TRIALS must be a number, got: $trials" >&2; exit 2 ;; esac

mvn -B verify -pl canal-reliability -am -DskipUnitTests \
    '-Dit.test=dev/canal/reliability/**/*IT' -Dfailsafe.failIfNoSpecifiedTests=false \
    "-Dreliability.trials=$trials"
