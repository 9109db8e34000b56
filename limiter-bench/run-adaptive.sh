#!/usr/bin/env bash
# The adaptive concurrency load harness: an embedded Jetty on 127.0.0.1 with a backend of 8 slots at
# 20 ms, driven open-loop at 0.5x, 1x, 2x and 3x its capacity behind no limiter, Limiter's fixed
# concurrency limit (8, 4, 32), Netflix concurrency-limits' Gradient2 and Limiter's adaptive limit;
# then a capacity change (8 -> 4 -> 16) and 10% critical traffic at 3x. Writes
# limiter-bench/target/adaptive-results.md (the tables and issue 27's target ratios).
#
#   limiter-bench/run-adaptive.sh           # about 4 minutes
#   limiter-bench/run-adaptive.sh --smoke   # every kind of run once, briefly: checks it runs
#   limiter-bench/run-adaptive.sh --criticality  # only the criticality runs, each critical miss listed
#   limiter-bench/run-adaptive.sh --simulated    # the scenarios in simulated time (a slow dependency,
#                                                # a probe cycle at 4x): seconds, exact and repeatable;
#                                                # writes limiter-bench/target/adaptive-simulated.md
#
# Loopback only; every server it starts stops with its run, and the harness exits when done
# (timeout is the backstop). Builds target/benchmarks.jar if it is missing. JAVA_OPTS adds JVM options.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "${1:-}" in
  ""|--smoke|--criticality|--simulated) ;;
  *) echo "usage: run-adaptive.sh [--smoke|--criticality|--simulated], was '$*'" >&2; exit 2 ;;
esac
jar="$here/target/benchmarks.jar"
if [[ ! -f "$jar" ]]; then
  echo "building $jar" >&2
  (cd "$here/.." && ./mvnw -q -pl limiter-bench -am package -DskipTests)
fi
if [[ "${1:-}" == --simulated ]]; then
  exec timeout 600 java -Xmx512m ${JAVA_OPTS:-} -cp "$jar" \
    io.github.limiter.bench.adaptive.SimulatedLoad "$here/target/adaptive-simulated.md"
fi
exec timeout 600 java -Xms256m -Xmx512m ${JAVA_OPTS:-} -cp "$jar" \
  io.github.limiter.bench.adaptive.AdaptiveLoad ${1:-} "$here/target/adaptive-results.md"
