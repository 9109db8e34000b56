package io.github.limiter.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.memory.InMemoryStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.ObjectName;

/**
 * Bytes of heap per key held, excluding the key string, measured as heap after full GCs.
 *
 * <p>Usage: {@code java -XX:+UseSerialGC -cp benchmarks.jar io.github.limiter.bench.MemoryFootprint
 * <subject> [keys] [--histogram]}, subject one of {@code token-bucket}, {@code leaky-bucket},
 * {@code fixed-window}, {@code sliding-window-counter}, {@code sliding-window-log}, {@code
 * bucket4j}. Prints one JSON line. The key strings are built first and measured the same way, so
 * that the store's share is what it adds on top of keys the application holds anyway; {@code
 * --histogram} also prints the classes that grew, per key, to stderr.
 *
 * <p>Limits last an hour, so no key is fresh (and reclaimable) while the store fills.
 */
public final class MemoryFootprint {

  private static final Duration HOUR = Duration.ofHours(1);

  private MemoryFootprint() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException(
          "usage: MemoryFootprint <token-bucket|leaky-bucket|fixed-window|sliding-window-counter"
              + "|sliding-window-log|bucket4j> [keys] [--histogram]");
    }
    String subject = args[0];
    int count =
        args.length > 1 && !args[1].startsWith("--") ? Integer.parseInt(args[1]) : 1_000_000;
    boolean histogram = args[args.length - 1].equals("--histogram");
    if (count < 1) {
      throw new IllegalArgumentException("keys must be at least 1, was " + count);
    }

    long empty = usedAfterGc();
    String[] keys = new String[count];
    for (int i = 0; i < count; i++) {
      keys[i] = "user-" + i;
    }
    long withKeys = usedAfterGc();
    String before = histogram ? histogram() : "";
    Object holder = fill(subject, keys);
    long filled = usedAfterGc();
    String after = histogram ? histogram() : "";
    Reference.reachabilityFence(holder);
    Reference.reachabilityFence(keys);

    double keyBytes = (double) (withKeys - empty) / count;
    double perKey = (double) (filled - withKeys) / count;
    System.out.printf(
        Locale.ROOT,
        "{\"subject\":\"%s\",\"keys\":%d,\"bytesPerKey\":%.1f,\"keyStringBytes\":%.1f,\"storeBytes\":%d}%n",
        subject,
        count,
        perKey,
        keyBytes,
        filled - withKeys);
    if (histogram) {
      HeapHistogram.printGrowth(before, after, count, System.err);
    }
  }

  private static Object fill(String subject, String[] keys) {
    if (subject.equals("bucket4j")) {
      Bandwidth bandwidth = Bandwidth.builder().capacity(100).refillGreedy(100, HOUR).build();
      ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
      for (String key : keys) {
        Bucket bucket =
            buckets.computeIfAbsent(key, k -> Bucket.builder().addLimit(bandwidth).build());
        check(subject, bucket.tryConsume(1));
      }
      return buckets;
    }
    Policy policy =
        switch (subject) {
          case "token-bucket" -> Policy.tokenBucket("mem", Limit.bucket(100, HOUR, 100));
          case "leaky-bucket" -> Policy.leakyBucket("mem", Limit.bucket(100, HOUR, 100));
          case "fixed-window" -> Policy.fixedWindow("mem", Limit.of(100, HOUR));
          case "sliding-window-counter" -> Policy.slidingWindowCounter("mem", Limit.of(100, HOUR));
          case "sliding-window-log" -> Policy.slidingWindowLog("mem", Limit.of(10, HOUR));
          default -> throw new IllegalArgumentException("subject: unknown, was '" + subject + "'");
        };
    InMemoryStore store = InMemoryStore.builder().maxKeys(keys.length).build();
    for (String key : keys) {
      check(subject, store.decide(policy, key, 1).isAllowed());
    }
    if (store.size() != keys.length) {
      throw new IllegalStateException(
          subject + ": expected " + keys.length + " keys held, was " + store.size());
    }
    return store;
  }

  private static void check(String subject, boolean admitted) {
    if (!admitted) {
      throw new IllegalStateException(subject + ": a first call was rejected");
    }
  }

  /** Heap in use after full collections, once a collection no longer shrinks it. */
  static long usedAfterGc() throws InterruptedException {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      Thread.sleep(10);
      long now = memory.getHeapMemoryUsage().getUsed();
      if (now >= used) {
        return used;
      }
      used = now;
    }
    return used;
  }

  /** The live-object histogram, as {@code jcmd <pid> GC.class_histogram} prints it. */
  private static String histogram() throws Exception {
    return (String)
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "gcClassHistogram",
                new Object[] {new String[0]},
                new String[] {String[].class.getName()});
  }
}
