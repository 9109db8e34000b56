#!/usr/bin/env bash
# Measures what RateLimitFilter costs, with wrk against an embedded Jetty on 127.0.0.1 (not a test).
#
#   limiter-bench/overhead.sh [seconds per run, default 10] [rounds, default 3]
#   PROFILE=0 MIX_RUNS=5 limiter-bench/overhead.sh 5 0    # interleaved only, five runs: the figures
#
# Paths (see src/test/java/io/github/limiter/bench/overhead/OverheadServer.java):
#   /bare/x       the trivial servlet, no filter                      (the baseline)
#   /bare/json    a small JSON endpoint (1 kB from 20 items), no filter: a servlet worth protecting
#   /bare/problem the filter's 429, written by a servlet from constants: what the response itself costs
#   /bare/headers the trivial servlet sending the two rate-limit headers, as constants: what they cost the container
#   /app/plain    the same servlet behind the filter, matching no route
#   /app/limited  behind the filter, admitted (a limit it never reaches), headers sent
#   /app/rejected behind the filter, every request but the first rejected with the 429
#   /quiet/limited as /app/limited, with limiter.http.headers=false: what the two headers cost
#   /top/limited  as /app/limited, with limiter.top-keys.enabled=true: what counting the top keys costs
#   /metered/limited as /app/limited, recording metrics on Micrometer (a Prometheus registry added to
#                 Metrics.globalRegistry); /app and /quiet have limiter.metrics.enabled=false
#   /otel/limited as /app/limited, recording metrics on OpenTelemetry (GlobalOpenTelemetry, an SDK)
# Each round runs every path once, in turn, each on a fresh server warmed up on that path alone
# (WARM_UP_SECONDS, default 10), so that machine noise spreads evenly and the JIT compiles the
# container for one path, as in a real deployment. Reported: the medians of throughput and of the
# server's CPU time (user + system, from /proc) per request, which counts the kernel's network
# work too and moves less with the load of the machine. Then (unless PROFILE=0) a server runs
# under Java Flight Recorder per filtered path, and the share of the container's worker Java
# samples spent inside the filter is printed, with what it was spent on (PROFILE_PATHS chooses
# the paths). JAVA_OPTS adds options to the server's JVM.
# Needs wrk (apt-get install -y wrk).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_RUN=${1:-10}
ROUNDS=${2:-3}
THREADS=${WRK_THREADS:-1}
CONNECTIONS=${WRK_CONNECTIONS:-32}
PROFILE_SECONDS=${PROFILE_SECONDS:-30}
# PIN=1 gives the server one core and wrk the other. Off by default: in this VM it made the
# server slower and noisier (every request then crosses cores).
SERVER_CPU=; CLIENT_CPU=
if [ "${PIN:-0}" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  SERVER_CPU="taskset -c 1"; CLIENT_CPU="taskset -c 0"
fi
command -v wrk >/dev/null || { echo "wrk is missing: apt-get update && apt-get install -y wrk" >&2; exit 1; }

# Built with the reactor, so that the filter is this checkout's, not one installed in ~/.m2.
(cd .. && ./mvnw -q -pl limiter-bench -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/overhead.classpath)
CP="target/test-classes:target/classes:$(cat target/overhead.classpath)"

LOG=target/overhead-server.log
SERVER=
trap '[ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null || true' EXIT
start_server() { # start_server [java options...]: sets SERVER and BASE
  $SERVER_CPU java -Xms256m -Xmx256m ${JAVA_OPTS:-} "$@" -cp "$CP" io.github.limiter.bench.overhead.OverheadServer > "$LOG" 2>&1 &
  SERVER=$!
  for _ in $(seq 300); do grep -q '^port=' "$LOG" 2>/dev/null && break; sleep 0.1; done
  PORT=$(sed -n 's/^port=//p' "$LOG")
  [ -n "$PORT" ] || { cat "$LOG"; exit 1; }
  BASE="http://127.0.0.1:$PORT"
}
stop_server() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=; }
PATHS=${PATHS:-"/bare/x /bare/json /bare/problem /bare/headers /app/plain /app/limited /quiet/limited /top/limited /app/rejected /metered/limited /otel/limited"}
WARM_UP_SECONDS=${WARM_UP_SECONDS:-10}

start_server
curl -s -o /dev/null -w '%{http_code} ' "$BASE/app/rejected"; curl -s -D - -o /dev/null "$BASE/app/rejected" | head -1
stop_server

# Every run gets a fresh server, warmed up on its path alone: as in a real deployment, the JIT
# compiles the container for the one way it is used, instead of for a mix of paths whose order
# would then favour some of them.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
TICKS_PER_SECOND=$(getconf CLK_TCK)
declare -A RESULTS CPU
for round in $(seq "$ROUNDS"); do
  for p in $PATHS; do
    start_server
    $CLIENT_CPU wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARM_UP_SECONDS}s" "$BASE$p" > /dev/null
    before=$(cpu_ticks)
    out=$($CLIENT_CPU wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" "$BASE$p")
    after=$(cpu_ticks)
    stop_server
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    us=$(awk -v t=$((after - before)) -v n="$requests" -v hz="$TICKS_PER_SECOND" 'BEGIN {printf "%.2f", t * 1e6 / hz / n}')
    RESULTS[$p]="${RESULTS[$p]:-} $rps"
    CPU[$p]="${CPU[$p]:-} $us"
    echo "round $round $p: $rps req/s, $us µs server CPU per request ${non2xx:+(non-2xx: $non2xx)}"
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# Per path: the median of its per-round ratios to /bare/x of the same round (a pair run back to
# back shares the machine's state), and the range of those ratios.
paired() { # paired "<values of a path>" "<values of /bare/x>": median, min and max of a/b - 1 in %
  awk -v a="$1" -v b="$2" 'BEGIN {
    n = split(a, x, " "); split(b, y, " ")
    for (i = 1; i <= n; i++) r[i] = (x[i] - y[i]) * 100 / y[i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
    m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
    printf "%+.1f%% [%+.1f%%, %+.1f%%]", m, r[1], r[n] }'
}
if [ "$ROUNDS" -gt 0 ]; then
echo
echo "over $ROUNDS rounds of ${SECONDS_PER_RUN}s, wrk -t$THREADS -c$CONNECTIONS (load average: $(cut -d' ' -f1-3 /proc/loadavg));"
echo "change against /bare/x in the same round: median [least, most]"
printf "  %-14s %9s %11s  %-30s %s\n" path "req/s" "CPU µs/req" "server CPU per request" "throughput"
for p in $PATHS; do
  m=$(echo "${RESULTS[$p]}" | median)
  c=$(echo "${CPU[$p]}" | median)
  printf "  %-14s %9.0f %11.2f  %-30s %s\n" "$p" "$m" "$c" "$(paired "${CPU[$p]}" "${CPU[/bare/x]}")" \
    "$(paired "${RESULTS[$p]}" "${RESULTS[/bare/x]}")"
done
fi

# Interleaved: one server, every wrk connection sending the paths in turn, so that they share the
# machine's state at every moment; CpuMeter sums the handling thread's CPU time per path. The
# difference to /bare/x is what the filter adds to a request, set against the server's whole CPU
# time per request (user + system, all threads, from /proc): the share of throughput it costs.
# MIX_RUNS runs (default 1), each on a fresh server; with several, the range and median per path,
# and what metrics on (/metered/limited: Micrometer, /otel/limited: OpenTelemetry) add to
# /app/limited (metrics off) within each run. MIX_PATHS chooses the paths (default: PATHS).
MIX_SECONDS=${MIX_SECONDS:-20}
MIX_RUNS=${MIX_RUNS:-1}
MIX_PATHS=${MIX_PATHS:-$PATHS}
# admitted "<scrape>": the admitted decisions of policy "limited" counted by Micrometer (Prometheus
# scrape) and by OpenTelemetry (the scrape's comment line), as "<micrometer> <opentelemetry>"
admitted() {
  echo "$1" | awk '
    /^limiter_decisions_total\{/ && /policy="limited"/ && /outcome="admitted"/ { m += $NF }
    /^# otel limiter.decisions admitted=/ { split($0, a, "="); o = a[2] }
    END { printf "%d %d", m, o }'
}
declare -A ADDED SHARE
for run in $(seq "$MIX_RUNS"); do
  echo
  echo "interleaved run $run of $MIX_RUNS, ${MIX_SECONDS}s after a ${WARM_UP_SECONDS}s warm-up, wrk -t$THREADS -c$CONNECTIONS:"
  start_server
  MIX="$MIX_PATHS" $CLIENT_CPU wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARM_UP_SECONDS}s" -s scripts/overhead-mix.lua "$BASE" > /dev/null
  counted_before=$(admitted "$(curl -s "$BASE/bare/scrape")")
  curl -s "$BASE/meter?reset" > /dev/null
  before=$(cpu_ticks)
  out=$(MIX="$MIX_PATHS" $CLIENT_CPU wrk -t"$THREADS" -c"$CONNECTIONS" -d"${MIX_SECONDS}s" -s scripts/overhead-mix.lua "$BASE")
  after=$(cpu_ticks)
  meter=$(curl -s "$BASE/meter")
  counted_after=$(admitted "$(curl -s "$BASE/bare/scrape")")
  stop_server
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  total=$(awk -v t=$((after - before)) -v n="$requests" -v hz="$TICKS_PER_SECOND" 'BEGIN {printf "%.2f", t * 1e6 / hz / n}')
  echo "  server CPU per request, every path and thread, kernel included: $total µs ($requests requests)"
  table=$(echo "$meter" | awk -v total="$total" '
    { n[$1] = $2; cpu[$1] = $3 / $2 / 1000 }
    END {
      for (p in n) printf "%s %d %.3f %.3f %.2f\n", p, n[p], cpu[p], cpu[p] - cpu["/bare/x"],
        (cpu[p] - cpu["/bare/x"]) * 100 / total
    }' | sort)
  printf "  %-16s %9s %16s %18s\n" path requests "handler CPU µs" "vs /bare/x"
  echo "$table" | awk '{ printf "  %-16s %9d %16.2f %+10.2f µs = %+.1f%% of a request\n", $1, $2, $3, $4, $5 }'
  while read -r p _ _ added share; do
    ADDED[$p]="${ADDED[$p]:-} $added"; SHARE[$p]="${SHARE[$p]:-} $share"
  done <<< "$table"
  for metered in /metered/limited /otel/limited; do
    if [ -n "$(echo "$table" | awk -v p="$metered" '$1 == p')" ] && [ -n "$(echo "$table" | awk '$1 == "/app/limited"')" ]; then
      on_off=$(echo "$table" | awk -v p="$metered" '$1 == p {on = $5} $1 == "/app/limited" {off = $5} END {printf "%.2f", on - off}')
      SHARE["$metered - /app/limited"]="${SHARE["$metered - /app/limited"]:-} $on_off"
    fi
  done
  read -r m0 o0 <<< "$counted_before"; read -r m1 o1 <<< "$counted_after"
  echo "  admitted decisions recorded meanwhile: Micrometer $((m1 - m0)) (/metered/limited: $(echo "$meter" | awk '$1 == "/metered/limited" {print $2}')), OpenTelemetry $((o1 - o0)) (/otel/limited: $(echo "$meter" | awk '$1 == "/otel/limited" {print $2}'))"
done

spread() { # spread "<values>": least–most (median)
  tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {
    m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
    printf "%+.2f to %+.2f (median %+.2f)", a[1], a[NR], m }'
}
if [ "$MIX_RUNS" -gt 1 ]; then
  echo
  echo "over the $MIX_RUNS interleaved runs, against /bare/x of the same run: least to most (median)"
  printf "  %-16s %-40s %s\n" path "adds µs" "% of a request"
  for p in $(printf '%s\n' "${!ADDED[@]}" | sort); do
    printf "  %-16s %-40s %s\n" "$p" "$(echo "${ADDED[$p]}" | spread)" "$(echo "${SHARE[$p]}" | spread)"
  done
  for k in "/metered/limited - /app/limited" "/otel/limited - /app/limited"; do
    [ -z "${SHARE[$k]:-}" ] || echo "  metrics on minus off, $k: $(echo "${SHARE[$k]}" | spread) points of a request"
  done
fi

[ "${PROFILE:-1}" = 0 ] && exit 0
# JFR's profile settings, sampling Java code every millisecond instead of every 10 ms.
JAVA_HOME_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
sed 's|<setting name="period" control="method-sampling-java-interval">10 ms</setting>|<setting name="period" control="method-sampling-java-interval">1 ms</setting>|' \
  "$JAVA_HOME_DIR/lib/jfr/profile.jfc" > target/overhead.jfc
echo
echo "share of the container's worker Java CPU samples inside the filter (JFR, wrk ${PROFILE_SECONDS}s after a 5s warm-up;"
echo "kernel time is not sampled, so this overstates the filter's share of the whole request):"
for p in ${PROFILE_PATHS:-/app/plain /app/limited /app/rejected}; do
  rm -f target/overhead.jfr
  start_server
  $CLIENT_CPU wrk -t"$THREADS" -c"$CONNECTIONS" -d5s "$BASE$p" > /dev/null
  jcmd "$SERVER" JFR.start name=load settings="$PWD/target/overhead.jfc" > /dev/null
  $CLIENT_CPU wrk -t"$THREADS" -c"$CONNECTIONS" -d"${PROFILE_SECONDS}s" "$BASE$p" > /dev/null
  jcmd "$SERVER" JFR.dump name=load filename="$PWD/target/overhead.jfr" > /dev/null
  stop_server
  java -cp "$CP" io.github.limiter.bench.overhead.FilterCpuShare target/overhead.jfr "$p"
done
