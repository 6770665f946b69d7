#!/usr/bin/env bash
# Stops the canal server if it runs, then starts it with the given startup.sh arguments.
set -euo pipefail
bin_dir=$(cd "$(dirname "$0")" && pwd)
"$bin_dir/stop.sh"
exec "$bin_dir/startup.sh" "$@"
