#!/usr/bin/env bash
# Two builds' RedisLoad in alternating rounds (A B, B A, A B, ...), each round a fresh redis-server
# (redis-load.sh) and the subjects' order rotated round by round, so that neither build nor subject
# always runs first. Prints RedisLoad's JSON lines tagged with "build" (a or b) and "r" (the round).
# Usage: redis-load-ab.sh A.jar B.jar ROUNDS [RedisLoad options without --subject and --rounds]
# e.g.   redis-load-ab.sh /tmp/before.jar limiter-bench/target/benchmarks.jar 5 --threads 1,8,32 \
#          --keys 1,10000 --warmup 1 --seconds 3 | limiter-bench/scripts/redis-load-ab.py
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[[ $# -ge 3 ]] || { echo "usage: $0 A.jar B.jar ROUNDS [RedisLoad options]" >&2; exit 1; }
a="$1" b="$2" rounds="$3"
shift 3
subjects=(limiter limiter-direct bucket4j-batching)
for ((r = 1; r <= rounds; r++)); do
  order="a b"
  ((r % 2 == 0)) && order="b a"
  k=$(((r - 1) % ${#subjects[@]}))
  list=""
  for ((s = 0; s < ${#subjects[@]}; s++)); do
    list+="${list:+,}${subjects[(k + s) % ${#subjects[@]}]}"
  done
  for build in $order; do
    jar="$a"
    [[ "$build" == b ]] && jar="$b"
    BENCH_CLASSPATH="$jar" "$here/redis-load.sh" --subject "$list" --rounds 1 "$@" |
      sed "s/^{/{\"build\":\"$build\",\"r\":$r,/"
  done
done
