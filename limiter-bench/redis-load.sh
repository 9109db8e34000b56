#!/usr/bin/env bash
# RedisLoad against a redis-server of its own, started on a free 127.0.0.1 port (never 6379) and
# stopped on exit: the arguments after the port are RedisLoad's (e.g. --subject limiter --threads
# 1,32 --keys 1 --rounds 5). JAVA_OPTS reach the JVM (e.g. -Dlimiter.bench.rate=1000);
# BENCH_CLASSPATH runs another build (e.g. an older benchmarks.jar) against the same kind of server.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
java="${JAVA:-java}"
if [[ ! -f "$jar" && -z "${BENCH_CLASSPATH:-}" ]]; then
  (cd "$here/.." && ./mvnw -q -pl limiter-bench -am package -DskipTests)
fi
step() { echo "== $*" >&2; }
source "$here/scripts/redis.sh"
trap stop_redis EXIT
start_redis
# shellcheck disable=SC2086
"$java" ${JAVA_OPTS:-} -cp "${BENCH_CLASSPATH:-$jar}" io.github.limiter.bench.RedisLoad --port "$redis_port" "$@"
