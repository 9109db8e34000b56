package io.github.limiter.bench;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.limiter.Decision;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.bench.Peers.Path;
import io.github.limiter.memory.InMemoryStore;
import io.github.resilience4j.ratelimiter.RateLimiter;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One hot key in this JVM, every peer on the same path: all calls admitted, or all rejected. Run
 * with {@code -t 1} and {@code -t 2}; all threads share one key, so two threads also measure
 * contention on its state.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SingleKeyBenchmark {

  static final String KEY = "client-42";

  @Param({"admit", "reject"})
  public String path;

  private Path branch;
  private InMemoryStore store;
  private Limiter limiter;
  private Policy tokenBucket;
  private Policy leakyBucket;
  private PolicyLimiter boundTokenBucket;
  private PolicyLimiter boundLeakyBucket;
  private Bucket bucket4j;
  private ConcurrentHashMap<String, Bucket> bucket4jByKey;
  private RateLimiter resilience4j;
  private com.google.common.util.concurrent.RateLimiter guava;
  private RawCasGcra raw;
  private ConcurrentHashMap<String, RawCasGcra> rawByKey;

  @Setup(Level.Trial)
  public void setUp() {
    branch = Peers.path(path);
    store = InMemoryStore.create();
    limiter = Limiter.of(store);
    tokenBucket = Peers.tokenBucket(branch);
    leakyBucket = Peers.leakyBucket(branch);
    boundTokenBucket = limiter.bind(tokenBucket);
    boundLeakyBucket = limiter.bind(leakyBucket);
    if (branch == Path.REJECT) {
      Peers.drain("limiter token bucket", () -> limiter.decide(tokenBucket, KEY).isAllowed());
      Peers.drain("limiter leaky bucket", () -> limiter.decide(leakyBucket, KEY).isAllowed());
    }
    bucket4j = Peers.bucket4j(branch);
    bucket4jByKey = new ConcurrentHashMap<>();
    bucket4jByKey.put(KEY, Peers.bucket4j(branch));
    resilience4j = Peers.resilience4j(branch);
    guava = Peers.guava(branch);
    raw = Peers.raw(branch);
    rawByKey = new ConcurrentHashMap<>();
    rawByKey.put(KEY, Peers.raw(branch));
    check();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    check();
    limiter.close();
  }

  /** One more call per peer, so that a run on the wrong path fails instead of reporting. */
  private void check() {
    Peers.expect("limiter token bucket", branch, limiter.decide(tokenBucket, KEY).isAllowed());
    Peers.expect("limiter leaky bucket", branch, limiter.decide(leakyBucket, KEY).isAllowed());
    Peers.expect(
        "limiter tryAcquire token bucket", branch, limiter.tryAcquire(tokenBucket, KEY, 1) == 0);
    Peers.expect("bound token bucket", branch, boundTokenBucket.decide(KEY).isAllowed());
    Peers.expect("bound leaky bucket", branch, boundLeakyBucket.decide(KEY).isAllowed());
    Peers.expect("bound tryAcquire token bucket", branch, boundTokenBucket.tryAcquire(KEY) == 0);
    Peers.expect("bound tryAcquire leaky bucket", branch, boundLeakyBucket.tryAcquire(KEY) == 0);
    Peers.expect("bucket4j", branch, bucket4j.tryConsume(1));
    Peers.expect("bucket4j in a map", branch, bucket4jByKey.get(KEY).tryConsume(1));
    Peers.expect("resilience4j", branch, resilience4j.acquirePermission());
    Peers.expect("guava", branch, guava.tryAcquire());
    Peers.expect("raw CAS GCRA", branch, raw.tryAcquire());
    Peers.expect("raw CAS GCRA in a map", branch, rawByKey.get(KEY).tryAcquire());
  }

  @Benchmark
  public Decision limiterTokenBucket() {
    return limiter.decide(tokenBucket, KEY);
  }

  @Benchmark
  public Decision limiterLeakyBucket() {
    return limiter.decide(leakyBucket, KEY);
  }

  /** The policy bound once, as the adapters use it: {@code PolicyLimiter#decide(key)}. */
  @Benchmark
  public Decision boundTokenBucket() {
    return boundTokenBucket.decide(KEY);
  }

  @Benchmark
  public Decision boundLeakyBucket() {
    return boundLeakyBucket.decide(KEY);
  }

  /** Bound, and the primitive answer: 0 or the nanoseconds to wait, no Decision. */
  @Benchmark
  public long boundTryAcquireTokenBucket() {
    return boundTokenBucket.tryAcquire(KEY);
  }

  @Benchmark
  public long boundTryAcquireLeakyBucket() {
    return boundLeakyBucket.tryAcquire(KEY);
  }

  /** The primitive fast path: 0 or the nanoseconds to wait, no Decision; like Bucket4j's yes/no. */
  @Benchmark
  public long limiterTryAcquireTokenBucket() {
    return limiter.tryAcquire(tokenBucket, KEY, 1);
  }

  @Benchmark
  public boolean bucket4j() {
    return bucket4j.tryConsume(1);
  }

  /** Bucket4j's call that, like a {@link Decision}, also reports remaining and the wait. */
  @Benchmark
  public ConsumptionProbe bucket4jProbe() {
    return bucket4j.tryConsumeAndReturnRemaining(1);
  }

  /**
   * Bucket4j as it is used per client: the bucket found by key in a ConcurrentHashMap. Limiter's
   * calls always include that lookup; a lone {@code Bucket} does not.
   */
  @Benchmark
  public boolean bucket4jMap() {
    return bucket4jByKey.get(KEY).tryConsume(1);
  }

  @Benchmark
  public boolean resilience4j() {
    return resilience4j.acquirePermission();
  }

  @Benchmark
  public boolean guava() {
    return guava.tryAcquire();
  }

  @Benchmark
  public boolean rawCasGcra() {
    return raw.tryAcquire();
  }

  /** The floor with a key lookup: the same GCRA found by key in a ConcurrentHashMap. */
  @Benchmark
  public boolean rawCasGcraMap() {
    return rawByKey.get(KEY).tryAcquire();
  }
}
