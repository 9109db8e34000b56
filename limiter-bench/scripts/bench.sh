#!/usr/bin/env bash
# Runs the benchmarks in one of three sizes and writes target/results.md from the raw results.
#   smoke: every benchmark once, briefly, in one JVM: checks they execute (CI, under a minute)
#   quick: every peer, short iterations (under 3 minutes)
#   full:  longer iterations, both thread counts everywhere, the cost breakdown, every algorithm's memory
# Redis benchmarks use a redis-server this script starts on a free 127.0.0.1 port and stops.
set -euo pipefail

mode="${1:?usage: bench.sh smoke|quick|full [label]}"
label="${2:-limiter-bench/scripts/bench.sh $mode}"
here="$(cd "$(dirname "$0")/.." && pwd)"
jar="$here/target/benchmarks.jar"
raw="$here/target/bench-results"
results="$here/target/results.md"
java="${JAVA:-java}"

if [[ ! -f "$jar" ]]; then
  echo "building $jar" >&2
  (cd "$here/.." && ./mvnw -q -pl limiter-bench -am package -DskipTests)
fi
rm -rf "$raw"
mkdir -p "$raw"

case "$mode" in
  smoke)
    jmh_single=(-f 0 -wi 0 -i 1 -r 100ms)
    jmh_many=(-f 0 -wi 0 -i 1 -r 100ms -p refill=slow)
    single_threads=(1); many_threads=(1); cost=no
    memory_subjects=(token-bucket bucket4j); memory_keys=10000; memory_flags=()
    redis_threads=1,8; redis_keys=1,100; redis_warmup=0.1; redis_seconds=0.2; redis_calls=2000; redis_rounds=1
    ;;
  quick)
    # Warm-up long enough for C2 to finish Limiter's deeper call chain even on a loaded machine;
    # at 2 threads only the peers the goals name.
    jmh_single=(-f 1 -wi 2 -w 500ms -i 3 -r 300ms)
    single_t2='SingleKeyBenchmark.(boundTokenBucket|boundTryAcquireTokenBucket|bucket4j|bucket4jMap|rawCasGcra|rawCasGcraMap)$'
    jmh_many=(-f 1 -wi 1 -w 500ms -i 5 -r 200ms -p refill=slow)
    single_threads=(1 2); many_threads=(1); cost=no
    memory_subjects=(token-bucket leaky-bucket bucket4j); memory_keys=1000000; memory_flags=()
    redis_threads=1,8,32; redis_keys=1,10000; redis_warmup=0.3; redis_seconds=1; redis_calls=30000; redis_rounds=3
    ;;
  full)
    jmh_single=(-f 1 -wi 3 -w 1s -i 10 -r 1s)
    jmh_many=(-f 1 -wi 3 -w 1s -i 10 -r 1s)
    single_threads=(1 2); many_threads=(1 2); cost=yes
    memory_subjects=(token-bucket leaky-bucket fixed-window sliding-window-counter sliding-window-log bucket4j)
    memory_keys=1000000; memory_flags=(--histogram)
    redis_threads=1,8,32; redis_keys=1,10000; redis_warmup=2; redis_seconds=5; redis_calls=500000; redis_rounds=3
    ;;
  *) echo "mode: expected smoke, quick or full, was '$mode'" >&2; exit 2 ;;
esac

started=$SECONDS
# The load average at every step goes into the results: on a shared machine it says how noisy the run was.
step() {
  echo "== [$((SECONDS - started))s] $*" >&2
  echo "$((SECONDS - started)) $(cut -d' ' -f1-3 /proc/loadavg) $*" >> "$raw/load.txt"
}

cpu_profiler=io.github.limiter.bench.CpuTimeProfiler
# -foe: a benchmark that throws (e.g. a peer found on the wrong path) fails the whole run.
for t in "${single_threads[@]}"; do
  step "local, one key, $t thread(s)"
  filter='SingleKeyBenchmark'
  if [[ "$t" != 1 && -n "${single_t2:-}" ]]; then filter="$single_t2"; fi
  "$java" -jar "$jar" "$filter" "${jmh_single[@]}" -t "$t" -foe true -prof "$cpu_profiler" \
    -rf json -rff "$raw/jmh-single-t$t.json" > "$raw/jmh-single-t$t.log"
done
for t in "${many_threads[@]}"; do
  step "local, 100 000 keys, $t thread(s)"
  "$java" -Xmx2g -jar "$jar" 'ManyKeysBenchmark' "${jmh_many[@]}" -t "$t" -foe true -prof "$cpu_profiler" \
    -rf json -rff "$raw/jmh-many-t$t.json" > "$raw/jmh-many-t$t.log"
done
if [[ "$cost" == yes || "$mode" == smoke ]]; then
  step "cost breakdown"
  "$java" -jar "$jar" 'CostBreakdownBenchmark' "${jmh_single[@]}" -t 1 -foe true \
    -rf json -rff "$raw/jmh-cost.json" > "$raw/jmh-cost.log"
fi

step "memory, ${memory_keys} keys"
for subject in "${memory_subjects[@]}"; do
  # A fresh JVM per subject, serial GC so that "used after GC" is exact.
  "$java" -XX:+UseSerialGC -Xms1g -Xmx1g -cp "$jar" io.github.limiter.bench.MemoryFootprint \
    "$subject" "$memory_keys" "${memory_flags[@]}" >> "$raw/memory.jsonl" 2>> "$raw/memory-histogram.txt"
done

if [[ "$mode" == smoke ]]; then
  # The adaptive concurrency load harness, briefly (run-adaptive.sh runs it in full).
  step "adaptive concurrency harness, smoke"
  timeout 120 "$java" -Xmx512m -cp "$jar" io.github.limiter.bench.adaptive.AdaptiveLoad --smoke \
    "$raw/adaptive-smoke.md" > "$raw/adaptive-smoke.log" 2>&1
  step "adaptive concurrency harness, simulated scenarios"
  timeout 120 "$java" -Xmx512m -cp "$jar" io.github.limiter.bench.adaptive.SimulatedLoad \
    "$raw/adaptive-simulated.md" > "$raw/adaptive-simulated.log" 2>&1
fi

source "$here/scripts/redis.sh"
redis_benchmarks

step "results"
python3 "$here/scripts/results.py" "$raw" "$results" "$label" > /dev/null
step "done: $results"
