#!/usr/bin/env python3
"""RedisLoad's JSON lines (stdin) as a Markdown table: per key count and thread count, the default
(subject "limiter") against each other subject of the run, as the ratio of the same round's two
runs (median and min-max of the rounds), beside each subject's median throughput and Redis CPU per
decision (commandstats: the script and the commands it calls).

Usage: redis-load.sh --subject limiter,limiter-direct,bucket4j-batching ... | redis-load-table.py
"""
import json
import statistics
import sys

runs = [json.loads(line) for line in sys.stdin if line.startswith("{")]
if not runs:
    sys.exit("no RedisLoad lines on stdin")
subjects = list(dict.fromkeys(r["subject"] for r in runs))
if "limiter" not in subjects:
    sys.exit("the run has no default subject, limiter")
others = [s for s in subjects if s != "limiter"]
cells = list(dict.fromkeys((r["keys"], r["threads"]) for r in runs))
by = {(r["keys"], r["threads"], r.get("round", 0), r["subject"]): r for r in runs}


def spread(values):
    values = sorted(values)
    return f"{statistics.median(values):.2f} ({values[0]:.2f}–{values[-1]:.2f})" if values else "–"


head = ["keys", "threads"] + [f"default ÷ {s}" for s in others]
head += ["k decisions/s: " + " / ".join(subjects), "Redis µs per decision: " + " / ".join(subjects)]
print("| " + " | ".join(head) + " |")
print("|" + "---:|" * 2 + "---|" * (len(head) - 2))
for keys, threads in cells:
    rounds = sorted({rd for (k, t, rd, _) in by if (k, t) == (keys, threads)})
    row = [f"{keys:,}".replace(",", " "), str(threads)]
    for other in others:
        ratios = [by[keys, threads, rd, "limiter"]["opsPerSec"] / by[keys, threads, rd, other]["opsPerSec"]
                  for rd in rounds if (keys, threads, rd, "limiter") in by and (keys, threads, rd, other) in by]
        row.append(spread(ratios))
    ops, us = [], []
    for s in subjects:
        mine = [by[keys, threads, rd, s] for rd in rounds if (keys, threads, rd, s) in by]
        ops.append(f"{statistics.median(r['opsPerSec'] for r in mine) / 1000:.1f}")
        us.append(f"{statistics.median(r['commandUsPerCall'] for r in mine):.2f}")
    row += [" / ".join(ops), " / ".join(us)]
    print("| " + " | ".join(row) + " |")
over = sum(r.get("overAdmitted", 0) for r in runs if r["subject"].startswith("limiter"))
print(f"\n{len(runs)} runs, {max(r.get('round', 1) for r in runs)} round(s); Limiter over-admissions: {over}")
