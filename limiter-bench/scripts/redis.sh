# Sourced by bench.sh: the Redis part. Starts one redis-server on a free 127.0.0.1 port (never
# 6379), runs redis-benchmark and the Java subjects against it, and stops it on exit.

redis_pid=""
redis_port=""

stop_redis() {
  if [[ -n "$redis_pid" ]] && kill -0 "$redis_pid" 2>/dev/null; then
    kill "$redis_pid"
    wait "$redis_pid" 2>/dev/null || true
  fi
  redis_pid=""
}

start_redis() {
  local dir="$here/target/redis"
  mkdir -p "$dir"
  for attempt in 1 2 3; do
    redis_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if [[ "$redis_port" == 6379 ]]; then continue; fi
    # Started directly (not in a subshell), so that $! is the server's own pid.
    redis-server --port "$redis_port" --bind 127.0.0.1 --protected-mode yes --save "" --appendonly no \
      --dir "$dir" --logfile "redis-$redis_port.log" --daemonize no &
    redis_pid=$!
    for _ in $(seq 50); do
      if redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG; then
        return 0
      fi
      kill -0 "$redis_pid" 2>/dev/null || break
      sleep 0.1
    done
    stop_redis
  done
  echo "could not start redis-server on a free port; see $dir" >&2
  return 1
}

redis_cli() {
  redis-cli -h 127.0.0.1 -p "$redis_port" "$@"
}

# Runs redis-benchmark with the given arguments into $1 (CSV), and writes $1's .stats beside it: the
# server's command statistics of exactly that run, the server's and the client's CPU seconds, and
# the wall seconds.
redis_benchmark_run() {
  local csv="$1"
  shift
  redis_cli config resetstat > /dev/null
  local cpu0 cpu1 client
  cpu0=$(server_cpu_seconds)
  client=$( { TIMEFORMAT='%R %U %S'; time redis-benchmark -h 127.0.0.1 -p "$redis_port" --csv "$@" > "$csv"; } 2>&1 )
  cpu1=$(server_cpu_seconds)
  read -r wall user sys <<< "$client"
  {
    redis_cli info commandstats
    echo "server_cpu_seconds:$(python3 -c "print($cpu1 - $cpu0)")"
    echo "client_cpu_seconds:$(python3 -c "print($user + $sys)")"
    echo "wall_seconds:$wall"
  } > "${csv%.csv}.stats"
}

# The server process's CPU seconds so far, user and system.
server_cpu_seconds() {
  redis_cli info cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/ { s += $2 } END { printf "%.6f", s }'
}

redis_benchmarks() {
  if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null || ! command -v redis-benchmark >/dev/null; then
    echo "redis-server, redis-cli or redis-benchmark not installed: skipping the Redis benchmarks" >&2
    return 0
  fi
  trap stop_redis EXIT
  start_redis
  step "redis on 127.0.0.1:$redis_port"

  redis_ceiling
  # Auto (the default), pipelined and direct mode and Bucket4j batching() alternate run by run,
  # $redis_rounds rounds each: their ratios compare runs that saw the same noise.
  step "redis, limiter auto, pipelined and direct, bucket4j batching, interleaved"
  redis_cli flushall > /dev/null
  "$java" -cp "$jar" io.github.limiter.bench.RedisLoad --port "$redis_port" \
    --subject limiter,limiter-pipelined,limiter-direct,bucket4j-batching \
    --threads "$redis_threads" --keys "$redis_keys" --warmup "$redis_warmup" --seconds "$redis_seconds" \
    --rounds "$redis_rounds" >> "$raw/redis.jsonl" 2> "$raw/redis-limiter.log"
  step "redis, bucket4j: plain, delaying"
  redis_cli flushall > /dev/null
  "$java" -cp "$jar" io.github.limiter.bench.RedisLoad --port "$redis_port" \
    --subject bucket4j,bucket4j-delaying \
    --threads "$redis_threads" --keys "$redis_keys" --warmup "$redis_warmup" --seconds "$redis_seconds" \
    >> "$raw/redis.jsonl" 2> "$raw/redis-bucket4j.log"
  # Over-admission: a limit of 1000/s with a burst of 1000 on a fresh hot key, 8 threads; each
  # subject's admissions against the most the limit lets through while the run lasts.
  step "redis, over-admission at 1000/s"
  redis_cli flushall > /dev/null
  "$java" -Dlimiter.bench.rate=1000 -cp "$jar" io.github.limiter.bench.RedisLoad --port "$redis_port" \
    --subject limiter,limiter-auto,limiter-pipelined,limiter-direct,bucket4j,bucket4j-batching,bucket4j-delaying \
    --threads 8 --keys 1 --fresh true --seconds "$redis_seconds" \
    >> "$raw/redis-exactness.jsonl" 2> "$raw/redis-exactness.log"
  stop_redis
  trap - EXIT
}

# redis-benchmark sending the very EVALSHA the Limiter store sends: the ceiling of one Redis core.
redis_ceiling() {
  local keys threads
  # LimiterRedis prints the SHA and one decision's arguments as MONITOR saw them, the key as @KEY@.
  "$java" -cp "$jar" io.github.limiter.bench.LimiterRedis --evalsha "$redis_port" > "$raw/evalsha.txt"
  local sha
  sha=$(sed -n 's/^sha //p' "$raw/evalsha.txt")
  mapfile -t args < <(sed -n 's/^arg //p' "$raw/evalsha.txt")
  IFS=',' read -r -a key_counts <<< "$redis_keys"
  IFS=',' read -r -a thread_counts <<< "$redis_threads"
  for keys in "${key_counts[@]}"; do
    for threads in "${thread_counts[@]}"; do
      step "redis-benchmark, $keys key(s), $threads connection(s)"
      redis_cli flushall > /dev/null
      local call=()
      local arg
      for arg in "${args[@]}"; do
        if [[ "$keys" == 1 ]]; then call+=("${arg//@KEY@/hot}"); else call+=("${arg//@KEY@/user-__rand_int__}"); fi
      done
      local random=()
      if [[ "$keys" != 1 ]]; then random=(-r "$keys"); fi
      redis_benchmark_run "$raw/redis-benchmark-c$threads-k$keys.csv" -c "$threads" -n "$redis_calls" \
        "${random[@]}" evalsha "$sha" "${call[@]}"
    done
    # The pipelined ceiling: 16 calls in flight per connection.
    step "redis-benchmark, $keys key(s), $threads connection(s), -P 16"
    redis_cli flushall > /dev/null
    redis_benchmark_run "$raw/redis-benchmark-c$threads-P16-k$keys.csv" -c "$threads" -P 16 \
      -n "$redis_calls" "${random[@]}" evalsha "$sha" "${call[@]}"
  done
}
