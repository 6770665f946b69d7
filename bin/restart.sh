#!/usr/bin/env bash
# Stops the canal server if it runs, then starts it with the given startup.sh arguments. A server that had to be
# killed (stop.sh exit 1) is reported and the start goes ahead.
set -euo pipefail
bin_dir=$(cd "$(dirname "$0")" && pwd)
"$bin_dir/stop.sh" || echo "restart: the server had to be killed; starting it again" >&2
exec "$bin_dir/startup.sh" "$@"
