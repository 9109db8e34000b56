#!/usr/bin/env bash
# Times a 10 x 10 sweep over a generated access log of a million lines (docs/replay.md has the
# figures). Build first: ./mvnw -pl limiter-replay -am package -DskipTests (test classes included).
set -euo pipefail
cd "$(dirname "$0")/.."
log=${1:-/tmp/limiter-replay-1m.log}
# 100 clients at 5 requests/s with Poisson jitter and one at 100/s, for 1680 s: 1,006,929 lines.
java -cp limiter-replay/target/test-classes io.github.limiter.replay.AccessLogGenerator 100 1680 42 "$log"
time java -jar limiter-replay/target/limiter-replay.jar sweep --algorithm token-bucket \
  --rate 2..20 --capacity 5..50 --format combined "$log" --report "${log%.log}.html" | tail -2
