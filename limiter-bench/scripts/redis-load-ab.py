#!/usr/bin/env python3
"""redis-load-ab.sh's JSON lines (stdin) as a Markdown table: per key count and thread count, build
b's default against build a's default (the same round's two runs), and each build's default
against its direct mode and Bucket4j batching() (the same run's), as the median and min-max of the
rounds' ratios, beside the medians of throughput and Redis CPU per decision (commandstats).
"""
import json
import statistics
import sys

runs = [json.loads(line) for line in sys.stdin if line.startswith("{")]
if not runs:
    sys.exit("no redis-load-ab.sh lines on stdin")
by = {(r["keys"], r["threads"], r["r"], r["build"], r["subject"]): r for r in runs}
cells = list(dict.fromkeys((r["keys"], r["threads"]) for r in runs))
rounds = sorted({r["r"] for r in runs})


def spread(values):
    values = sorted(values)
    if not values:
        return "–"
    return f"{statistics.median(values):.2f} ({values[0]:.2f}–{values[-1]:.2f})"


def ratios(keys, threads, x, y):
    out = []
    for rd in rounds:
        if (keys, threads, rd) + x in by and (keys, threads, rd) + y in by:
            out.append(by[(keys, threads, rd) + x]["opsPerSec"] / by[(keys, threads, rd) + y]["opsPerSec"])
    return out


def med(keys, threads, build, subject, field, scale=1.0):
    values = [by[keys, threads, rd, build, subject][field] * scale for rd in rounds
              if (keys, threads, rd, build, subject) in by]
    return statistics.median(values) if values else float("nan")


print("| keys | threads | b ÷ a, default | a: default ÷ direct | b: default ÷ direct "
      "| a: default ÷ Bucket4j | b: default ÷ Bucket4j | k decisions/s, default a / b / direct b / Bucket4j b "
      "| Redis µs per decision, default a / b |")
print("|---:|---:|---|---|---|---|---|---|---|")
for keys, threads in cells:
    row = [f"{keys:,}".replace(",", " "), str(threads),
           spread(ratios(keys, threads, ("b", "limiter"), ("a", "limiter")))]
    for build in ("a", "b"):
        row.append(spread(ratios(keys, threads, (build, "limiter"), (build, "limiter-direct"))))
    for build in ("a", "b"):
        row.append(spread(ratios(keys, threads, (build, "limiter"), (build, "bucket4j-batching"))))
    row.append(" / ".join(f"{med(keys, threads, b, s, 'opsPerSec', 1e-3):.1f}" for b, s in
                          (("a", "limiter"), ("b", "limiter"), ("b", "limiter-direct"), ("b", "bucket4j-batching"))))
    row.append(" / ".join(f"{med(keys, threads, b, 'limiter', 'commandUsPerCall'):.2f}" for b in ("a", "b")))
    print("| " + " | ".join(row) + " |")
over = sum(r.get("overAdmitted", 0) for r in runs if r["subject"].startswith("limiter"))
print(f"\n{len(runs)} runs, {len(rounds)} rounds; Limiter over-admissions: {over}")
