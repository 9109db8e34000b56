#!/usr/bin/env bash
# One global policy across three regions (docs/multi-region.md), at full length: RegionLoad starts
# four redis-servers on free 127.0.0.1 ports (three regions and the global budget), latency proxies
# of 130-170 ms round trip between each region and the global one, two stores (nodes) per region,
# and offers twice the limit: spread (20 s), all in region 0 (5 s), spread with region 2 cut off for
# 60 s, restored; then the same load on a region-local lease policy for the latency. Arguments go to
# RegionLoad, e.g. --cut 30 --rate 4000. Appends the JSON lines to
# target/bench-results/region.jsonl. Run it under flock /tmp/limiter-bench.lock on a shared machine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
java="${JAVA:-java}"
if [[ ! -f "$jar" ]]; then
  (cd "$here/.." && ./mvnw -q -pl limiter-bench -am package -DskipTests)
fi
mkdir -p "$here/target/bench-results"
cd "$here"
"$java" -cp "${BENCH_CLASSPATH:-$jar}" io.github.limiter.bench.RegionLoad "$@" \
  | tee -a "$here/target/bench-results/region.jsonl"
