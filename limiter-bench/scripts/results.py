#!/usr/bin/env python3
"""Turns one run's raw results into target/results.md: throughput, memory, Redis, and the ratios.

Every ratio is between numbers from the same run. A JMH score here is the median of the
measurement iterations (of all forks), not JMH's mean: on a shared 2-core machine a burst of
someone else's work slows a few iterations a lot, and the median ignores them.

Usage: results.py <raw dir> <output .md> [command that produced the run]
"""
import csv
import glob
import json
import os
import re
import statistics
import sys

raw_dir, out_path = sys.argv[1], sys.argv[2]
command = sys.argv[3] if len(sys.argv) > 3 else ""


SAMPLES = {}  # (pattern, method, params, threads) -> {"wall": [ops/s...], "cpu": [ns/op...]}


def jmh(pattern):
    """{(method, params tuple, threads): median score} over the JMH JSON files matching pattern."""
    scores = {}
    for path in sorted(glob.glob(os.path.join(raw_dir, pattern))):
        with open(path) as f:
            for run in json.load(f):
                method = run["benchmark"].rsplit(".", 1)[1]
                params = tuple(sorted((run.get("params") or {}).items()))
                key = (method, params, run["threads"])
                entry = SAMPLES.setdefault((pattern,) + key, {"wall": [], "cpu": []})
                entry["wall"] += [x for fork in run["primaryMetric"]["rawData"] for x in fork]
                cpu = (run.get("secondaryMetrics") or {}).get("cpu.ns/op")
                if cpu:
                    entry["cpu"] += [x for fork in cpu["rawData"] for x in fork if x == x]
                scores[key] = entry["wall"]
    return {k: statistics.median(v) for k, v in scores.items()}


def best(pattern, key):
    """The best iteration's throughput: the run least slowed by other processes."""
    v = SAMPLES.get((pattern,) + key, {}).get("wall")
    return max(v) if v else None


def cpu_rate(pattern, key):
    """Calls per CPU-second of the benchmark JVM (1e9 / median CPU ns per call), if profiled."""
    v = SAMPLES.get((pattern,) + key, {}).get("cpu")
    return 1e9 / statistics.median(v) if v else None


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def fmt_ratio(r):
    return "n/a" if r is None else f"{r:.2f}×"


def fmt_m(x):
    return "n/a" if x is None else f"{x / 1e6:.1f}"


def verdict(r, goal):
    if r is None:
        return "not measured"
    if r >= goal:
        return "**met**"
    # Repeated runs here move a ratio by about 5%: closer than that is a tie, not a clear miss.
    return "**missed** (within 5%: a tie)" if r >= 0.95 * goal else "**missed**"


lines = []
goals = []  # (goal, measured from medians, verdict, measured from best iterations)
out = lines.append

out("# Limiter benchmark results")
out("")
if command:
    out(f"Produced by `{command}`.")
    out("")
if "--smoke" in command:
    out("**Smoke run: one short iteration without warm-up. These numbers only show that every benchmark "
        "executed; do not read them as performance.**")
    out("")
load_path = os.path.join(raw_dir, "load.txt")
if os.path.exists(load_path):
    loads = [float(l.split()[1]) for l in open(load_path) if l.strip()]
    if loads:
        out(f"Load average (1 min) on this {os.cpu_count()}-core machine during the run: "
            f"{min(loads):.1f} to {max(loads):.1f}. Above about 1, other processes were competing for the cores.")
        out("")
out("All numbers come from one run on one machine; compare ratios, not absolute values across runs.")
out("JMH scores are the median of the measurement iterations (millions of calls per second).")
out("")

# ---- Local, single key ----------------------------------------------------------------------
single = jmh("jmh-single-t*.json")
if single:
    threads = sorted({k[2] for k in single})

    def s(method, path, t):
        return single.get((method, (("path", path),), t))

    peers = [
        ("boundTokenBucket", "PolicyLimiter#decide (bound), token bucket"),
        ("boundLeakyBucket", "PolicyLimiter#decide (bound), leaky bucket (GCRA)"),
        ("boundTryAcquireTokenBucket", "PolicyLimiter#tryAcquire (bound, yes/no), token bucket"),
        ("boundTryAcquireLeakyBucket", "PolicyLimiter#tryAcquire (bound, yes/no), leaky bucket"),
        ("limiterTokenBucket", "Limiter#decide(policy, ...), token bucket"),
        ("limiterLeakyBucket", "Limiter#decide(policy, ...), leaky bucket (GCRA)"),
        ("limiterTryAcquireTokenBucket", "Limiter#tryAcquire(policy, ...), token bucket"),
        ("bucket4j", "Bucket4j tryConsume"),
        ("bucket4jProbe", "Bucket4j tryConsumeAndReturnRemaining"),
        ("bucket4jMap", "Bucket4j tryConsume, bucket found in a ConcurrentHashMap"),
        ("resilience4j", "Resilience4j acquirePermission"),
        ("guava", "Guava tryAcquire"),
        ("rawCasGcra", "raw AtomicLong CAS GCRA (floor)"),
        ("rawCasGcraMap", "raw CAS GCRA found in a ConcurrentHashMap (per-key floor)"),
    ]
    cols = [(p, t) for p in ("admit", "reject") for t in threads]
    out("## Local, one hot key (M calls/s)")
    out("")
    out("| peer | " + " | ".join(f"{p}, {t} thr" for p, t in cols) + " |")
    out("|---|" + "---:|" * len(cols))
    for method, label in peers:
        out(f"| {label} | " + " | ".join(fmt_m(s(method, p, t)) for p, t in cols) + " |")
    out("")
    def b(method, path, t):
        return best("jmh-single-t*.json", (method, (("path", path),), t))

    def c(method, path, t):
        return cpu_rate("jmh-single-t*.json", (method, (("path", path),), t))

    if any(c(m, p, t) for m, _ in peers for p, t in cols):
        out("CPU time per call (ns, median; the whole benchmark JVM, so GC is included):")
        out("")
        out("| peer | " + " | ".join(f"{p}, {t} thr" for p, t in cols) + " |")
        out("|---|" + "---:|" * len(cols))
        for method, label in peers:
            out(f"| {label} | " + " | ".join(
                "n/a" if not c(method, p, t) else f"{1e9 / c(method, p, t):.1f}" for p, t in cols) + " |")
        out("")

    cpu_known = any(c(m, p, t) for m, _ in peers for p, t in cols)

    def r_of(method, path, t):
        return c(method, path, t) if cpu_known else s(method, path, t)

    out("Ratios, Limiter ÷ peer (" + ("calls per CPU-second" if cpu_known else "median wall-clock throughput")
        + "; above 1 means Limiter is faster):")
    out("")
    out("| Limiter call | vs | " + " | ".join(f"{p}, {t} thr" for p, t in cols) + " |")
    out("|---|---|" + "---:|" * len(cols))
    for mine in ("boundTokenBucket", "boundLeakyBucket", "boundTryAcquireTokenBucket", "boundTryAcquireLeakyBucket",
                 "limiterTokenBucket", "limiterLeakyBucket"):
        for other in ("bucket4j", "bucket4jProbe", "bucket4jMap", "rawCasGcra", "rawCasGcraMap"):
            out(f"| {mine} | {other} | "
                + " | ".join(fmt_ratio(ratio(r_of(mine, p, t), r_of(other, p, t))) for p, t in cols) + " |")
    out("")

    for path in ("admit", "reject"):
        for mine, label in (("boundTokenBucket", "token bucket, PolicyLimiter#decide"),
                            ("boundLeakyBucket", "leaky bucket, PolicyLimiter#decide"),
                            ("boundTryAcquireTokenBucket", "token bucket, PolicyLimiter#tryAcquire"),
                            ("boundTryAcquireLeakyBucket", "leaky bucket, PolicyLimiter#tryAcquire")):
            for other, name, goal in (("bucket4j", "Bucket4j", 1.0), ("bucket4jMap", "Bucket4j in a map (like for like)", 1.0),
                                      ("rawCasGcra", "raw CAS GCRA", 0.7),
                                      ("rawCasGcraMap", "raw CAS GCRA in a map (like for like)", 0.7)):
                r = ratio(s(mine, path, 1), s(other, path, 1))
                rb = ratio(b(mine, path, 1), b(other, path, 1))
                rc = ratio(c(mine, path, 1), c(other, path, 1))
                goals.append((f"Local {path}, {label}, 1 thread: ≥ {goal}× {name}",
                              fmt_ratio(rc if rc else r), verdict(rc if rc else r, goal), fmt_ratio(r), fmt_ratio(rb)))

# ---- Local, 100k keys -----------------------------------------------------------------------
many = jmh("jmh-many-t*.json")
if many:
    out("## Local, 100 000 keys in random order (M calls/s)")
    out("")
    settings = sorted({(dict(k[1]).get("refill"), k[2]) for k in many})
    out("| call | " + " | ".join(f"refill={r}, {t} thr" for r, t in settings) + " |")
    out("|---|" + "---:|" * len(settings))

    def m(method, refill, t):
        return many.get((method, (("refill", refill),), t))

    for method, label in (("bound", "PolicyLimiter#decide (bound)"), ("limiter", "Limiter#decide(policy, ...)"),
                          ("bucket4jMap", "ConcurrentHashMap<String, Bucket4j Bucket>")):
        out(f"| {label} | " + " | ".join(fmt_m(m(method, r, t)) for r, t in settings) + " |")
    def mc(method, refill, t):
        return cpu_rate("jmh-many-t*.json", (method, (("refill", refill),), t))

    for method in ("bound", "limiter"):
        out(f"| {method} ÷ bucket4jMap, wall clock | "
            + " | ".join(fmt_ratio(ratio(m(method, r, t), m("bucket4jMap", r, t))) for r, t in settings) + " |")
        out(f"| {method} ÷ bucket4jMap, CPU time | "
            + " | ".join(fmt_ratio(ratio(mc(method, r, t), mc("bucket4jMap", r, t))) for r, t in settings) + " |")
    out("")
    out("`slow`: no bucket is ever full again, every call admitted (steady state). "
        "`fast`: buckets are full again 1 ms after a call, so the store forgets and re-creates keys.")
    out("")
    r = ratio(m("bound", "slow", 1), m("bucket4jMap", "slow", 1))
    mine, theirs = ("bound", (("refill", "slow"),), 1), ("bucket4jMap", (("refill", "slow"),), 1)
    rb = ratio(best("jmh-many-t*.json", mine), best("jmh-many-t*.json", theirs))
    rc = ratio(cpu_rate("jmh-many-t*.json", mine), cpu_rate("jmh-many-t*.json", theirs))
    goals.append(("100k keys (PolicyLimiter#decide, steady state, 1 thread): ≥ 1.5× Bucket4j map",
                  fmt_ratio(rc if rc else r), verdict(rc if rc else r, 1.5), fmt_ratio(r), fmt_ratio(rb)))

# ---- Cost breakdown -------------------------------------------------------------------------
cost = jmh("jmh-cost*.json")
if cost:
    out("## Where the in-memory store's time goes (ns per call, 1 thread, one token-bucket key)")
    out("")
    steps = [("clock", "System.nanoTime() alone"), ("cas", "+ pure function in one CAS loop, yes/no"),
             ("lookupCas", "+ key lookup in a ConcurrentHashMap"),
             ("lookupCasAllocate", "+ allocating a Decision (fields not derived)"),
             ("lookupCasDecision", "+ full Decision (remaining, reset, retry-after)"),
             ("store", "InMemoryStore#decide (+ per-policy table lookup, epoch)"),
             ("storeFieldsOnly", "the store, the caller keeping only two primitives of the Decision")]
    out("| step | admit | reject |")
    out("|---|---:|---:|")
    for method, label in steps:
        vals = [cost.get((method, (("path", p),), 1)) for p in ("admit", "reject")]
        out(f"| {label} | " + " | ".join("n/a" if v is None else f"{v:.1f}" for v in vals) + " |")
    out("")

# ---- Memory ---------------------------------------------------------------------------------
memory_path = os.path.join(raw_dir, "memory.jsonl")
if os.path.exists(memory_path):
    rows = [json.loads(l) for l in open(memory_path) if l.strip().startswith("{")]
    by = {r["subject"]: r for r in rows}
    out("## Memory: bytes of heap per key, excluding the key string")
    out("")
    out("| subject | keys | bytes/key | key string itself | ÷ Bucket4j |")
    out("|---|---:|---:|---:|---:|")
    b4j = by.get("bucket4j", {}).get("bytesPerKey")
    for r in rows:
        out(f"| {r['subject']} | {r['keys']:,} | {r['bytesPerKey']:.1f} | {r['keyStringBytes']:.1f} | "
            f"{fmt_ratio(ratio(r['bytesPerKey'], b4j))} |")
    out("")
    for subject in ("token-bucket", "leaky-bucket"):
        if subject in by:
            v = by[subject]["bytesPerKey"]
            goals.append((f"Memory, {subject}: ≤ 100 bytes/key plus the key", f"{v:.1f} B",
                          "**met**" if v <= 100 else "**missed**", "", ""))

# ---- Redis ----------------------------------------------------------------------------------
redis_runs = []
redis_path = os.path.join(raw_dir, "redis.jsonl")
if os.path.exists(redis_path):
    redis_runs += [json.loads(l) for l in open(redis_path) if l.strip().startswith("{")]
for path in sorted(glob.glob(os.path.join(raw_dir, "redis-benchmark-c*-k*.csv"))):
    c, p, k = re.search(r"-c(\d+)(?:-P(\d+))?-k(\d+)\.csv$", path).groups()
    c, k = int(c), int(k)
    server, timing = {}, {}
    stats_path = path[:-4] + ".stats"
    if os.path.exists(stats_path):
        for line in open(stats_path):
            m = re.match(r"cmdstat_(\w+):calls=(\d+),usec=(\d+)", line.strip())
            if m:
                server[m.group(1)] = (int(m.group(2)), int(m.group(3)))
            m = re.match(r"(server_cpu_seconds|client_cpu_seconds|wall_seconds):([0-9.eE+-]+)$", line.strip())
            if m:
                timing[m.group(1)] = float(m.group(2))
    with open(path) as f:
        for row in csv.DictReader(f):
            r = {"subject": "redis-benchmark" + (f"-P{p}" if p else ""), "threads": c, "keys": k,
                 "opsPerSec": float(row["rps"]), "p50us": float(row["p50_latency_ms"]) * 1000,
                 "p99us": float(row["p99_latency_ms"]) * 1000}
            if "evalsha" in server:
                calls = server["evalsha"][0]
                r["scriptUsPerCall"] = sum(u for name, (_, u) in server.items() if name.startswith("eval")) / calls
                r["commandsPerCall"] = {name: n / calls for name, (n, _) in server.items() if name not in ("config", "info")}
            if timing.get("wall_seconds"):
                r["serverBusy"] = timing["server_cpu_seconds"] / timing["wall_seconds"]
                # every call of the run, at the CSV's overall rate
                r["cpuUsPerCall"] = timing["client_cpu_seconds"] * 1e6 / (float(row["rps"]) * timing["wall_seconds"])
            redis_runs.append(r)


def median_run(runs):
    """The run of median throughput among a subject's rounds."""
    ordered = sorted(runs, key=lambda r: r["opsPerSec"])
    return ordered[len(ordered) // 2]


def median(values):
    values = sorted(v for v in values if v is not None)
    return None if not values else values[len(values) // 2]


grouped = {}
for r in redis_runs:
    grouped.setdefault((r["subject"], r["keys"], r["threads"]), []).append(r)
redis_rows = [median_run(runs) for runs in grouped.values()]


def paired(keys, threads, value):
    """Default ÷ direct, round by round (the two alternate), and the median of those ratios."""
    a = grouped.get(("limiter", keys, threads), [])
    b = grouped.get(("limiter-direct", keys, threads), [])
    return median([ratio(value(x), value(y)) for x, y in zip(a, b)])


if redis_rows:
    subjects = ["limiter", "limiter-pipelined", "limiter-direct", "bucket4j", "bucket4j-batching", "bucket4j-delaying",
                "redis-benchmark", "redis-benchmark-P16"]
    names = {"limiter": "Limiter, default (auto)", "limiter-pipelined": "Limiter, pipelined",
             "limiter-direct": "Limiter, direct",
             "bucket4j": "Bucket4j Jedis (CAS)", "bucket4j-batching": "Bucket4j, batching()",
             "bucket4j-delaying": "Bucket4j, delaying(...)",
             "redis-benchmark": "redis-benchmark, same EVALSHA",
             "redis-benchmark-P16": "redis-benchmark -P 16"}
    by = {(r["subject"], r["keys"], r["threads"]): r for r in redis_rows}
    rounds = max(len(v) for k, v in grouped.items() if k[0] == "limiter") if any(k[0] == "limiter" for k in grouped) else 0
    out("## Redis: one local redis-server, closed loop (k calls/s, latency p50 / p99 in µs)")
    out("")
    out("| keys | threads | " + " | ".join(names[s] for s in subjects)
        + " | default ÷ direct | default ÷ redis-benchmark | default ÷ -P 16 | default ÷ Bucket4j |")
    out("|---:|---:|" + "---|" * len(subjects) + "---:|---:|---:|---:|")
    for keys, threads in sorted({(r["keys"], r["threads"]) for r in redis_rows}):
        cells = []
        for subj in subjects:
            r = by.get((subj, keys, threads))
            cells.append("" if r is None else
                         f"{r['opsPerSec'] / 1e3:.1f}k ({r['p50us']:.0f} / {r['p99us']:.0f})")
        get = lambda subj: (by.get((subj, keys, threads)) or {}).get("opsPerSec")
        out(f"| {keys:,} | {threads} | " + " | ".join(cells)
            + f" | {fmt_ratio(paired(keys, threads, lambda r: r['opsPerSec']))}"
            + f" | {fmt_ratio(ratio(get('limiter'), get('redis-benchmark')))}"
            + f" | {fmt_ratio(ratio(get('limiter'), get('redis-benchmark-P16')))}"
            + f" | {fmt_ratio(ratio(get('limiter'), get('bucket4j')))} |")
    out("")
    out("Threads are client threads for the Java subjects and connections (`-c`) for redis-benchmark; "
        "`-P 16` keeps 16 calls in flight per connection. The client and the server share the same 2 cores. "
        f"Limiter default (auto), pipelined and direct and Bucket4j batching() alternate run by run, {rounds} round(s) each: their cells are the "
        "median round, their ratio the median of the round-by-round ratios.")
    out("")
    out("Client CPU per decision (µs of the benchmark JVM's CPU time, every thread, per call; median round; "
        "for redis-benchmark, its process's user and system time per call, `-P 16` with as many connections "
        "as the largest thread count):")
    out("")
    out("| keys | threads | default | direct | direct ÷ default (round by round) | redis-benchmark | -P 16 |")
    out("|---:|---:|---:|---:|---:|---:|---:|")
    for keys, threads in sorted({(r["keys"], r["threads"]) for r in redis_rows}):
        a = by.get(("limiter", keys, threads))
        b = by.get(("limiter-direct", keys, threads))
        if a is None or b is None or "cpuUsPerCall" not in a:
            continue
        c = [(by.get((s, keys, threads)) or {}).get("cpuUsPerCall") for s in ("redis-benchmark", "redis-benchmark-P16")]
        out(f"| {keys:,} | {threads} | {a['cpuUsPerCall']:.1f} | {b['cpuUsPerCall']:.1f} | "
            f"{fmt_ratio(paired(keys, threads, lambda r: 1 / r['cpuUsPerCall'] if r['cpuUsPerCall'] else None))} | "
            + " | ".join("" if v is None else f"{v:.1f}" for v in c) + " |")
    out("")
    out("How busy the server was: its CPU time (`INFO cpu`, user and system) over the run's wall time, "
        "where 100 % is one whole core, all a single-threaded Redis can use, and in brackets the server's "
        "CPU per decision. A subject that leaves Redis idle part of the time is bounded by its client, not "
        "by Redis; the client shares the same 2 cores.")
    out("")
    busy_subjects = ["limiter", "limiter-direct", "redis-benchmark", "redis-benchmark-P16"]
    out("| keys | threads | " + " | ".join(names[s] for s in busy_subjects) + " |")
    out("|---:|---:|" + "---:|" * len(busy_subjects))
    for keys, threads in sorted({(r["keys"], r["threads"]) for r in redis_rows}):
        cells = []
        for subj in busy_subjects:
            r = by.get((subj, keys, threads))
            cells.append("" if r is None or r.get("serverBusy") is None else
                         f"{r['serverBusy']:.0%} ({r['serverBusy'] / r['opsPerSec'] * 1e6:.1f} µs)")
        out(f"| {keys:,} | {threads} | " + " | ".join(cells) + " |")
    out("")
    out("What one decision costs the server, from `INFO commandstats` of exactly that run: microseconds "
        "spent in Lua scripts (which includes the commands they call) per decision, and the commands per "
        "decision (those called from a script included). Bucket4j's CAS sends a GET, then an EVAL whose "
        "script GETs and compares again; more than one EVAL per decision is a lost compare-and-set, retried.")
    out("")
    cost_subjects = ["limiter", "limiter-direct", "bucket4j", "bucket4j-batching", "bucket4j-delaying", "redis-benchmark"]
    out("| keys | threads | " + " | ".join(cost_subjects) + " |")
    out("|---:|---:|" + "---|" * len(cost_subjects))
    for keys, threads in sorted({(r["keys"], r["threads"]) for r in redis_rows}):
        cells = []
        for subj in cost_subjects:
            r = by.get((subj, keys, threads))
            if r is None or "scriptUsPerCall" not in r:
                cells.append("n/a")
            else:
                cmds = ", ".join(f"{v:.2f} {name}" for name, v in sorted(r["commandsPerCall"].items()) if v >= 0.005)
                cells.append(f"{r['scriptUsPerCall']:.1f} µs; {cmds}")
        out(f"| {keys:,} | {threads} | " + " | ".join(cells) + " |")
    out("")
    exact_path = os.path.join(raw_dir, "redis-exactness.jsonl")
    exact = [json.loads(l) for l in open(exact_path) if l.strip().startswith("{")] if os.path.exists(exact_path) else []
    if exact:
        out(f"### Over-admission: {exact[0]['rate']}/s with a burst of {exact[0]['rate']}, one fresh hot key, "
            f"{exact[0]['threads']} threads")
        out("")
        out("The most the limit lets through is the burst plus what refills while the run lasts; "
            "admissions above it are over-admission. Bucket4j's `delaying` synchronises with Redis at most "
            "every 1 % of the limit or 50 ms.")
        out("")
        out("| subject | k calls/s | calls | admitted | most allowed | over-admitted |")
        out("|---|---:|---:|---:|---:|---:|")
        for r in exact:
            over = max(0, r["admitted"] - r["limit"])
            out(f"| {names.get(r['subject'], r['subject'])} | {r['opsPerSec'] / 1e3:.1f} | {r['calls']:,} | "
                f"{r['admitted']:,} | {r['limit']:,} | {over:,} ({over / r['limit']:.1%}) |")
            if r["subject"] == "limiter":
                goals.append(("Redis, default: no over-admission", f"{over} over {r['limit']:,}",
                              "**met**" if over == 0 else "**missed**", "", ""))
        out("")
    for threads in sorted({r["threads"] for r in redis_rows}):
        get = lambda subj: (by.get((subj, 1, threads)) or {}).get("opsPerSec")
        r = ratio(get("limiter"), get("bucket4j"))
        goals.append((f"Redis hot key, {threads} thread(s): ≥ 10× Bucket4j-Jedis", fmt_ratio(r), verdict(r, 10), "", ""))
        r = ratio(get("limiter"), get("redis-benchmark"))
        goals.append((f"Redis hot key, {threads} thread(s): ≥ 0.9× redis-benchmark", fmt_ratio(r), verdict(r, 0.9), "", ""))
    get32 = lambda subj: (by.get((subj, 1, 32)) or {}).get("opsPerSec")
    if get32("limiter") is not None:
        r = ratio(get32("limiter"), get32("redis-benchmark"))
        goals.append(("Redis hot key, 32 threads, default: ≥ 1.5× redis-benchmark -c 32", fmt_ratio(r), verdict(r, 1.5), "", ""))
        r = ratio(get32("limiter"), get32("redis-benchmark-P16"))
        goals.append(("Redis hot key, 32 threads, default: ≥ 0.5× redis-benchmark -c 32 -P 16", fmt_ratio(r), verdict(r, 0.5), "", ""))
        r = paired(1, 32, lambda x: 1 / x["p99us"] if x["p99us"] else None)
        goals.append(("Redis hot key, 32 threads: default p99 no worse than direct (direct p99 ÷ default p99 ≥ 1)",
                      fmt_ratio(r), verdict(r, 1.0), "", ""))
    if ("limiter", 1, 8) in by:
        r = paired(1, 8, lambda x: x["opsPerSec"])
        goals.append(("Redis hot key, 8 threads: default ≥ 1.3× direct", fmt_ratio(r), verdict(r, 1.3), "", ""))
    if ("limiter", 1, 1) in by:
        r = paired(1, 1, lambda x: x["opsPerSec"])
        goals.append(("Redis hot key, 1 thread: default ≥ 0.9× direct, interleaved throughput", fmt_ratio(r), verdict(r, 0.9), "", ""))
        r = paired(1, 1, lambda x: 1 / x["cpuUsPerCall"] if x["cpuUsPerCall"] else None)
        goals.append(("Redis hot key, 1 thread: default ≥ 0.9× direct, by client CPU per decision", fmt_ratio(r), verdict(r, 0.9), "", ""))

# ---- Goals ----------------------------------------------------------------------------------
if goals and "--smoke" not in command:
    out("## Goals")
    out("")
    out("Local verdicts use calls per CPU-second of the benchmark JVM (median iteration, "
        "`-prof io.github.limiter.bench.CpuTimeProfiler`, GC threads included): on a machine shared with "
        "other work, time-slicing changes wall-clock throughput a lot and CPU time per call little. The "
        "wall-clock ratio of the median iterations and of the best iterations (other processes only ever "
        "slow a benchmark down) follow as cross-checks. Redis and memory have one measurement each.")
    out("")
    out("| goal | measured | | wall clock, median | wall clock, best |")
    out("|---|---:|---|---:|---:|")
    for g in goals:
        out(f"| {g[0]} | {g[1]} | {g[2]} | {g[3]} | {g[4]} |")
    out("")

text = "\n".join(lines) + "\n"
with open(out_path, "w") as f:
    f.write(text)
print(text)
