#!/usr/bin/env bash
# The snapshot consistency tests at a million rows, each ending with the consumer's map equal to the table
# (docs/snapshots.md): SnapshotIT (an initial snapshot under concurrent inserts, updates and deletes, one stopped
# midway and resumed, one requested at run time by a signal row) and SnapshotKillIT (the packaged daemon killed
# with SIGKILL mid-copy, then restarted, or replaced by a standby behind ZooKeeper). mvn verify runs the same
# tests at 20,000 and 30,000 rows.
#
#   bench/snapshot-1m.sh [ROWS]        ROWS defaults to 1000000
#
# Runs against a private MariaDB started by the test fixture, or the server named by CANAL_TEST_MYSQL_URL
# (e.g. Oracle MySQL from real-mysql.sh). Takes several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
exec mvn -B verify -pl canal-parse,canal-reliability -am -DskipUnitTests=true -Dit.test='SnapshotIT,SnapshotKillIT' \
  -Dsnapshot.it.rows="$rows" -Dfailsafe.failIfNoSpecifiedTests=false
