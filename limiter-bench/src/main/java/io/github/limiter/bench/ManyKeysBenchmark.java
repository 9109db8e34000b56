package io.github.limiter.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.memory.InMemoryStore;
import java.time.Duration;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * 100 000 distinct keys, one chosen at random per call from pre-built strings: Limiter's store
 * against the usual Bucket4j set-up, a {@code ConcurrentHashMap<String, Bucket>}.
 *
 * <p>{@code refill=slow}: rate 1/s with a deep burst, so no bucket is ever full again and every
 * call is admitted: the steady state, lookup plus decision. {@code refill=fast}: 1000/s, burst
 * 1000, so a bucket is full again a millisecond after a call; Limiter's store then forgets such
 * keys (which changes no decision) and re-creates them on their next call, while the map keeps
 * every bucket.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ManyKeysBenchmark {

  static final int KEYS = 100_000;
  private static final AtomicLong SEEDS = new AtomicLong(0x9E3779B97F4A7C15L);

  @Param({"slow", "fast"})
  public String refill;

  private String[] keys;
  private InMemoryStore store;
  private Limiter limiter;
  private Policy policy;
  private PolicyLimiter bound;
  private Bandwidth bandwidth;
  private ConcurrentHashMap<String, Bucket> buckets;

  @Setup(Level.Trial)
  public void setUp() {
    Limit limit =
        switch (refill) {
          case "slow" -> Limit.bucket(1, Duration.ofSeconds(1), Peers.FAST);
          case "fast" -> Limit.bucket(1000, Duration.ofSeconds(1), 1000);
          default ->
              throw new IllegalArgumentException(
                  "refill: expected slow or fast, was '" + refill + "'");
        };
    keys = new String[KEYS];
    for (int i = 0; i < KEYS; i++) {
      keys[i] = "user-" + i;
    }
    store = InMemoryStore.builder().maxKeys(4 * KEYS).build();
    limiter = Limiter.of(store);
    policy = Policy.tokenBucket("many-" + refill, limit);
    bound = limiter.bind(policy);
    bandwidth =
        Bandwidth.builder()
            .capacity(limit.burst())
            .refillGreedy(limit.permits(), limit.period())
            .build();
    buckets = new ConcurrentHashMap<>();
    for (String key : keys) {
      store.decide(policy, key, 1);
      bucket(key).tryConsume(1);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    // Every call is admitted under both settings; a rejection means the set-up is not what it says.
    for (String key : keys) {
      Peers.expect(
          "limiter store, " + key, Peers.Path.ADMIT, store.decide(policy, key, 1).isAllowed());
      Peers.expect("bucket4j map, " + key, Peers.Path.ADMIT, bucket(key).tryConsume(1));
    }
    limiter.close();
  }

  private Bucket bucket(String key) {
    Bucket bucket = buckets.get(key);
    return bucket != null
        ? bucket
        : buckets.computeIfAbsent(key, k -> Bucket.builder().addLimit(bandwidth).build());
  }

  /** A per-thread xorshift and a multiply-shift to an index: no division, no shared state. */
  @State(Scope.Thread)
  public static class Picker {
    private long x;

    @Setup(Level.Trial)
    public void setUp() {
      x = SEEDS.getAndAdd(0x9E3779B97F4A7C15L) | 1;
    }

    int next() {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      return (int) (((x >>> 32) * KEYS) >>> 32);
    }
  }

  /** The policy bound once, as the adapters use it. */
  @Benchmark
  public Decision bound(Picker picker) {
    return bound.decide(keys[picker.next()]);
  }

  @Benchmark
  public Decision limiter(Picker picker) {
    return limiter.decide(policy, keys[picker.next()]);
  }

  @Benchmark
  public boolean bucket4jMap(Picker picker) {
    return bucket(keys[picker.next()]).tryConsume(1);
  }
}
