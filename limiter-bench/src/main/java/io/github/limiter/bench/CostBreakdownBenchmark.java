package io.github.limiter.bench;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.bench.Peers.Path;
import io.github.limiter.internal.algorithm.LongStateFunction;
import io.github.limiter.internal.algorithm.PolicyFunction;
import io.github.limiter.memory.InMemoryStore;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where the store's time goes on one hot token-bucket key: the same decision built up a step at a
 * time from the core's public pure function, in nanoseconds per call. Each step adds one thing the
 * in-memory store does, so the differences attribute its cost (this machine has no hardware
 * counters for {@code -prof perfnorm}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CostBreakdownBenchmark {

  @Param({"admit", "reject"})
  public String path;

  private Policy policy;
  private PolicyFunction function;
  private LongStateFunction single;
  private AtomicLong cell;
  private ConcurrentHashMap<String, AtomicLong> cells;
  private InMemoryStore store;

  @Setup(Level.Trial)
  public void setUp() {
    Path branch = Peers.path(path);
    policy = Peers.tokenBucket(branch);
    function = PolicyFunction.of(policy);
    single = function.single();
    long now = System.nanoTime();
    cell = new AtomicLong(single.fresh(now));
    cells = new ConcurrentHashMap<>();
    cells.put(SingleKeyBenchmark.KEY, new AtomicLong(single.fresh(now)));
    store = InMemoryStore.create();
    if (branch == Path.REJECT) {
      Peers.drain("store", () -> store.decide(policy, SingleKeyBenchmark.KEY, 1).isAllowed());
    }
  }

  /** 1. The clock read alone. */
  @Benchmark
  public long clock() {
    return System.nanoTime();
  }

  /** 2. The pure function in one CAS loop on one cell, answering yes or no. */
  @Benchmark
  public boolean cas() {
    return decide(cell, System.nanoTime());
  }

  /** 3. As 2, after looking the key up in a map. */
  @Benchmark
  public boolean lookupCas() {
    return decide(cells.get(SingleKeyBenchmark.KEY), System.nanoTime());
  }

  /** 4. As 3, plus allocating a decision without deriving its fields. */
  @Benchmark
  public Decision lookupCasAllocate() {
    long now = System.nanoTime();
    boolean admitted = decide(cells.get(SingleKeyBenchmark.KEY), now);
    return admitted
        ? Decision.allowed(policy.name(), single.limit(), 0, now, 0)
        : Decision.limited(policy.name(), single.limit(), 0, now);
  }

  /** 5. As 3, plus the full decision: remaining, reset and retry-after derived from the state. */
  @Benchmark
  public Decision lookupCasDecision() {
    AtomicLong entry = cells.get(SingleKeyBenchmark.KEY);
    long now = System.nanoTime();
    for (; ; ) {
      long state = entry.get();
      long retry = single.retryAfter(state, now, 1);
      if (retry != 0) {
        return function.rejected(single, state, now, retry);
      }
      long next = single.admit(state, now, 1);
      if (entry.compareAndSet(state, next)) {
        return function.admitted(single, next, now);
      }
    }
  }

  /** 6. The in-memory store itself: adds the per-policy table lookup and the store's epoch. */
  @Benchmark
  public Decision store() {
    return store.decide(policy, SingleKeyBenchmark.KEY, 1);
  }

  /**
   * 7. As 6, but the caller keeps only primitives, as an adapter that reads a few fields would:
   * whether the Decision is still allocated shows whether escape analysis can remove it.
   */
  @Benchmark
  public long storeFieldsOnly() {
    Decision decision = store.decide(policy, SingleKeyBenchmark.KEY, 1);
    return decision.isAllowed() ? decision.remaining() : decision.retryAfterNanos();
  }

  private boolean decide(AtomicLong entry, long now) {
    for (; ; ) {
      long state = entry.get();
      if (single.retryAfter(state, now, 1) != 0) {
        return false;
      }
      if (entry.compareAndSet(state, single.admit(state, now, 1))) {
        return true;
      }
    }
  }
}
