#!/usr/bin/env bash
# Quick run of every benchmark, under 3 minutes: writes limiter-bench/target/results.md.
# --smoke: every benchmark once, briefly, in under a minute; only checks that they execute.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "${1:-}" in
  "") exec "$here/scripts/bench.sh" quick "limiter-bench/run-quick.sh" ;;
  --smoke) exec "$here/scripts/bench.sh" smoke "limiter-bench/run-quick.sh --smoke" ;;
  *) echo "usage: run-quick.sh [--smoke], was '$*'" >&2; exit 2 ;;
esac
