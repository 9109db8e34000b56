#!/usr/bin/env bash
# Measures what RateLimitFilter costs, with wrk against an embedded Jetty on 127.0.0.1 (not a test).
#
#   limiter-servlet/overhead.sh [seconds per run, default 10] [rounds, default 3]
#
# Paths (see src/test/java/io/github/limiter/servlet/OverheadServer.java):
#   /bare/x       the trivial servlet, no filter                      (the baseline)
#   /app/plain    the same servlet behind the filter, matching no route
#   /app/limited  behind the filter, admitted (a limit it never reaches), headers sent
#   /app/rejected behind the filter, every request but the first rejected with the 429
#   /quiet/limited as /app/limited, with limiter.http.headers=false: what the two headers cost
# Each round runs every path once, in turn, so that machine noise spreads evenly; the medians are
# reported. Then (unless PROFILE=0) a second server runs under Java Flight Recorder, and the share
# of the container's worker CPU spent inside the filter is printed for /app/plain and /app/limited:
# a figure that, unlike throughput, does not move with the load of a shared machine.
# Needs wrk (apt-get install -y wrk).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_RUN=${1:-10}
ROUNDS=${2:-3}
THREADS=${WRK_THREADS:-1}
CONNECTIONS=${WRK_CONNECTIONS:-32}
PROFILE_SECONDS=${PROFILE_SECONDS:-30}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get update && apt-get install -y wrk" >&2; exit 1; }

../mvnw -q -o -f pom.xml test-compile
../mvnw -q -o -f pom.xml dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/overhead.classpath
CP="target/test-classes:target/classes:$(cat target/overhead.classpath)"

LOG=target/overhead-server.log
SERVER=
trap '[ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null || true' EXIT
start_server() { # start_server [java options...]: sets SERVER and BASE
  java -Xms256m -Xmx256m "$@" -cp "$CP" io.github.limiter.servlet.OverheadServer > "$LOG" 2>&1 &
  SERVER=$!
  for _ in $(seq 300); do grep -q '^port=' "$LOG" 2>/dev/null && break; sleep 0.1; done
  PORT=$(sed -n 's/^port=//p' "$LOG")
  [ -n "$PORT" ] || { cat "$LOG"; exit 1; }
  BASE="http://127.0.0.1:$PORT"
}
stop_server() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=; }
start_server
PATHS="/bare/x /app/plain /app/limited /quiet/limited /app/rejected"

curl -s -o /dev/null -w '%{http_code} ' "$BASE/app/rejected"; curl -s -D - -o /dev/null "$BASE/app/rejected" | head -1
echo "warm-up..."
for p in $PATHS; do wrk -t"$THREADS" -c"$CONNECTIONS" -d5s "$BASE$p" > /dev/null; done

declare -A RESULTS
for round in $(seq "$ROUNDS"); do
  for p in $PATHS; do
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" "$BASE$p")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    RESULTS[$p]="${RESULTS[$p]:-} $rps"
    echo "round $round $p: $rps req/s ${non2xx:+(non-2xx: $non2xx)}"
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
BARE=$(echo "${RESULTS[/bare/x]}" | median)
echo
echo "median req/s over $ROUNDS rounds of ${SECONDS_PER_RUN}s, wrk -t$THREADS -c$CONNECTIONS:"
for p in $PATHS; do
  m=$(echo "${RESULTS[$p]}" | median)
  awk -v p="$p" -v m="$m" -v b="$BARE" 'BEGIN {printf "  %-14s %10.0f  (%+.1f%% vs /bare/x)\n", p, m, (m - b) * 100 / b}'
done
stop_server

[ "${PROFILE:-1}" = 0 ] && exit 0
echo
echo "share of the container's worker CPU inside the filter (JFR, wrk ${PROFILE_SECONDS}s after a 5s warm-up):"
for p in /app/plain /app/limited; do
  rm -f target/overhead.jfr
  start_server
  wrk -t"$THREADS" -c"$CONNECTIONS" -d5s "$BASE$p" > /dev/null
  jcmd "$SERVER" JFR.start name=load settings=profile > /dev/null
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${PROFILE_SECONDS}s" "$BASE$p" > /dev/null
  jcmd "$SERVER" JFR.dump name=load filename="$PWD/target/overhead.jfr" > /dev/null
  stop_server
  java -cp "$CP" io.github.limiter.servlet.FilterCpuShare target/overhead.jfr "$p"
done
