#!/usr/bin/env bash
# Lease mode against direct mode on one hot key, in the same run on one redis-server started on a
# free 127.0.0.1 port: 4 stores (nodes) x 8 threads, 10 s each; script calls per decision from INFO
# commandstats, throughput and decisions per CPU-second, and their ratios (targets: calls <= 0.05,
# throughput >= 10x direct). Arguments go to LeaseLoad, e.g. --seconds 20 --rounds 2, or
# --algorithm fixed-window (a window no run fills) instead of the default token bucket of 10^6/s.
# Appends the JSON lines to target/bench-results/lease.jsonl as well. Run it under
# flock /tmp/limiter-bench.lock on a shared machine.
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
mkdir -p "$here/target/bench-results"
"$java" -cp "${BENCH_CLASSPATH:-$jar}" io.github.limiter.bench.LeaseLoad --port "$redis_port" "$@" \
  | tee -a "$here/target/bench-results/lease.jsonl"
