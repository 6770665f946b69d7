#!/usr/bin/env bash
# The snapshot consistency tests (SnapshotIT) at a million rows: an initial snapshot under concurrent inserts,
# updates and deletes, one stopped midway and resumed, and one requested at run time by a signal row, each ending
# with the consumer's map equal to the table (docs/snapshots.md). mvn verify runs the same tests at 20000 rows.
#
#   bench/snapshot-1m.sh [ROWS]        ROWS defaults to 1000000
#
# Runs against a private MariaDB started by the test fixture, or the server named by CANAL_TEST_MYSQL_URL
# (e.g. Oracle MySQL from real-mysql.sh). Takes several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
exec mvn -B verify -pl canal-parse -am -Dtest=none -Dit.test=SnapshotIT -Dsnapshot.it.rows="$rows" \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
