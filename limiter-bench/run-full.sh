#!/usr/bin/env bash
# Full run (about 20 minutes): longer iterations, 1 and 2 threads everywhere, the store's cost
# breakdown and every algorithm's memory. Writes limiter-bench/target/results.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/scripts/bench.sh" full "limiter-bench/run-full.sh"
