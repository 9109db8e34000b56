#!/usr/bin/env bash
# Redis CPU per decision of every algorithm's script (INFO commandstats, usec per EVALSHA), against
# a redis-server started on a free 127.0.0.1 port; the verdict is at most 10 usec per decision.
# BENCH_CLASSPATH runs another build (e.g. an older benchmarks.jar behind this ScriptCost).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
java="${JAVA:-java}"
if [[ ! -f "$jar" ]]; then
  (cd "$here/.." && ./mvnw -q -pl limiter-bench -am package -DskipTests)
fi
step() { echo "== $*" >&2; }
source "$here/scripts/redis.sh"
trap stop_redis EXIT
start_redis
"$java" -cp "${BENCH_CLASSPATH:-$jar}" io.github.limiter.bench.ScriptCost "$redis_port" "${1:-20000}"
