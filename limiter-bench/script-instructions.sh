#!/usr/bin/env bash
# Instructions Redis runs per EVALSHA of the store's token-bucket decision, which, unlike usec,
# do not depend on the machine's load: redis-server under valgrind's callgrind on a free 127.0.0.1
# port (never 6379), redis-benchmark sending the very EVALSHA the store sends (LimiterRedis
# --evalsha) on one key, pipelined; the inclusive count of evalShaCommand per call. Three scripts:
# the floor (TIME, GET, SET PX), an admitted decision and a refused one. Needs valgrind.
# BENCH_CLASSPATH runs another build (e.g. an older benchmarks.jar).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
java="${JAVA:-java}"
calls="${1:-2000}"
for tool in valgrind callgrind_control callgrind_annotate redis-server redis-cli redis-benchmark; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done
if [[ ! -f "$jar" ]]; then
  (cd "$here/.." && ./mvnw -q -pl limiter-bench -am package -DskipTests)
fi
dir="$here/target/callgrind"
rm -rf "$dir" && mkdir -p "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
[[ "$port" != 6379 ]] || { echo "got port 6379; run again" >&2; exit 1; }
valgrind --tool=callgrind --callgrind-out-file="$dir/out.%p" --log-file="$dir/valgrind.log" \
  redis-server --port "$port" --bind 127.0.0.1 --protected-mode yes --save "" --appendonly no \
  --dir "$dir" --logfile redis.log --daemonize no &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG && break
  sleep 0.2
done

# Instructions per call of EVALSHA <sha> <args...> (the key as @KEY@), after a quarter as warm-up.
measure() {
  local label="$1" sha="$2"
  shift 2
  local call=("${@//@KEY@/hot}")
  redis-benchmark -h 127.0.0.1 -p "$port" -P 16 -c 1 -n $((calls / 4)) evalsha "$sha" "${call[@]}" > /dev/null
  callgrind_control -z "$pid" > /dev/null
  redis-benchmark -h 127.0.0.1 -p "$port" -P 16 -c 1 -n "$calls" evalsha "$sha" "${call[@]}" > /dev/null
  callgrind_control -d "$label" "$pid" > /dev/null
  local dump ir
  # Read to the end (no early exit), so that pipefail sees no SIGPIPE.
  dump=$(ls -t "$dir"/out."$pid".* | awk 'NR == 1')
  ir=$(callgrind_annotate --inclusive=yes "$dump" 2>/dev/null |
    awk '/evalShaCommand/ && !n { gsub(",", "", $1); n = $1 } END { print n }')
  printf '%-34s %7d instructions per EVALSHA\n' "$label" $((ir / calls))
}

floor=$(redis-cli -h 127.0.0.1 -p "$port" script load \
  "local t = redis.call('TIME') redis.call('GET', KEYS[1]) redis.call('SET', KEYS[1], t[2], 'PX', 60000) return 1")
measure "floor: TIME+GET+SET PX" "$floor" 1 @KEY@
# A bucket far above the load admits every call; one of 1 a second refuses nearly all.
for rate in 1000000 1; do
  redis-cli -h 127.0.0.1 -p "$port" flushall > /dev/null
  "$java" -Dlimiter.bench.rate="$rate" -cp "${BENCH_CLASSPATH:-$jar}" io.github.limiter.bench.LimiterRedis --evalsha "$port" > "$dir/evalsha-$rate.txt"
  sha=$(sed -n 's/^sha //p' "$dir/evalsha-$rate.txt")
  mapfile -t args < <(sed -n 's/^arg //p' "$dir/evalsha-$rate.txt")
  if [[ "$rate" == 1 ]]; then label="token bucket, refused"; else label="token bucket, admitted"; fi
  measure "$label" "$sha" "${args[@]}"
done
