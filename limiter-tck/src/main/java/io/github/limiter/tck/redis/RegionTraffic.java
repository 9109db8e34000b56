package io.github.limiter.tck.redis;

import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Paced traffic from the clients of several regions, one thread per client: each region's rate is
 * split over its clients, and can change while it runs. A client decides on one key of one policy
 * through a store ({@code stores[region][node]}), or through whatever {@link Client} it is given,
 * such as an HTTP request to a server of its region. Every decision is tallied by region into 10 ms
 * buckets of real time, by when its answer came (admitted and asked), and its latency kept, so that
 * a test or a benchmark reads what was admitted in any interval and the latency percentiles of a
 * phase.
 */
public final class RegionTraffic implements AutoCloseable {

  /** The tally's resolution. */
  public static final long BUCKET_NANOS = 10_000_000;

  /** One decision by client {@code client} of region {@code region}. */
  @FunctionalInterface
  public interface Client {
    /** Whether the request was admitted. */
    boolean decide(int region, int client);
  }

  private final int[] clients;
  private final Client client;
  private final long origin = System.nanoTime();
  private final int buckets;
  private final AtomicLongArray[] admitted;
  private final AtomicLongArray[] asked;
  private final double[] perSecond;
  private final long[][] latencies;
  private final int[] latencyCount;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopped;

  /**
   * @param maxSeconds how long the tally lasts; decisions after that are not tallied
   */
  public RegionTraffic(RateLimitStore[][] stores, Policy policy, String key, int maxSeconds) {
    this(
        Arrays.stream(stores).mapToInt(region -> region.length).toArray(),
        (region, node) -> stores[region][node].decide(policy, key, 1).isAllowed(),
        maxSeconds);
  }

  /**
   * @param clients how many clients each region has
   * @param client makes one decision
   * @param maxSeconds how long the tally lasts; decisions after that are not tallied
   */
  public RegionTraffic(int[] clients, Client client, int maxSeconds) {
    this.clients = clients.clone();
    this.client = client;
    this.buckets = (int) (maxSeconds * 1_000_000_000L / BUCKET_NANOS);
    this.admitted = new AtomicLongArray[clients.length];
    this.asked = new AtomicLongArray[clients.length];
    for (int r = 0; r < clients.length; r++) {
      admitted[r] = new AtomicLongArray(buckets);
      asked[r] = new AtomicLongArray(buckets);
    }
    this.perSecond = new double[clients.length];
    int all = Arrays.stream(clients).sum();
    this.latencies = new long[all][1 << 18];
    this.latencyCount = new int[all];
  }

  /** Sets each region's rate, in decisions per second, split evenly over its clients. */
  public void rates(double... perRegion) {
    synchronized (perSecond) {
      System.arraycopy(perRegion, 0, perSecond, 0, perSecond.length);
    }
  }

  /** Starts one thread per client. */
  public void start() {
    int index = 0;
    for (int r = 0; r < clients.length; r++) {
      for (int n = 0; n < clients[r]; n++) {
        int region = r;
        int node = n;
        int slot = index++;
        Thread thread =
            new Thread(() -> run(region, node, slot), "region-traffic-" + region + "-" + node);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
    }
  }

  /** Nanoseconds since this traffic was created: the tally's time. */
  public long now() {
    return System.nanoTime() - origin;
  }

  private double rate(int region) {
    synchronized (perSecond) {
      return perSecond[region] / clients[region];
    }
  }

  private void run(int region, int node, int slot) {
    long next = System.nanoTime();
    while (!stopped) {
      double rate = rate(region);
      if (rate <= 0) {
        LockSupport.parkNanos(1_000_000);
        next = System.nanoTime();
        continue;
      }
      next += (long) (1e9 / rate);
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      } else if (wait < -10_000_000) {
        next = System.nanoTime(); // more than 10 ms behind: no burst to catch up
      }
      long start = System.nanoTime();
      boolean allowed = client.decide(region, node);
      long end = System.nanoTime();
      int bucket = (int) ((end - origin) / BUCKET_NANOS);
      if (bucket < buckets) {
        asked[region].incrementAndGet(bucket);
        if (allowed) {
          admitted[region].incrementAndGet(bucket);
        }
      }
      int i = latencyCount[slot];
      if (i < latencies[slot].length) {
        latencies[slot][i] = end - start;
        latencyCount[slot] = i + 1;
      }
    }
  }

  /** What {@code region} admitted in [from, to) of {@link #now()}, to the bucket. */
  public long admitted(int region, long fromNanos, long toNanos) {
    return sum(admitted[region], fromNanos, toNanos);
  }

  /** What every region admitted in [from, to). */
  public long admitted(long fromNanos, long toNanos) {
    long total = 0;
    for (int r = 0; r < clients.length; r++) {
      total += admitted(r, fromNanos, toNanos);
    }
    return total;
  }

  /** What {@code region} asked for in [from, to). */
  public long asked(int region, long fromNanos, long toNanos) {
    return sum(asked[region], fromNanos, toNanos);
  }

  /**
   * The most admitted across all regions in any interval of {@code widthNanos} (to the bucket)
   * within [from, to).
   */
  public long mostAdmittedIn(long widthNanos, long fromNanos, long toNanos) {
    int width = (int) (widthNanos / BUCKET_NANOS);
    int from = (int) (fromNanos / BUCKET_NANOS);
    int to = (int) Math.min(buckets, toNanos / BUCKET_NANOS);
    long most = 0;
    for (int b = from; b + width <= to; b++) {
      long sum = 0;
      for (AtomicLongArray region : admitted) {
        for (int i = b; i < b + width; i++) {
          sum += region.get(i);
        }
      }
      most = Math.max(most, sum);
    }
    return most;
  }

  private long sum(AtomicLongArray tally, long fromNanos, long toNanos) {
    long sum = 0;
    int to = (int) Math.min(buckets, toNanos / BUCKET_NANOS);
    for (int b = (int) (fromNanos / BUCKET_NANOS); b < to; b++) {
      sum += tally.get(b);
    }
    return sum;
  }

  /**
   * The {@code q} quantile (0..1) of every decision's latency, in nanoseconds; after {@link
   * #close}.
   */
  public long latencyQuantile(double q) {
    int total = 0;
    for (int c : latencyCount) {
      total += c;
    }
    long[] all = new long[total];
    int at = 0;
    for (int s = 0; s < latencies.length; s++) {
      System.arraycopy(latencies[s], 0, all, at, latencyCount[s]);
      at += latencyCount[s];
    }
    if (all.length == 0) {
      return 0;
    }
    Arrays.sort(all);
    return all[Math.min(all.length - 1, (int) Math.ceil(q * all.length) - 1)];
  }

  /** Stops the threads and waits for them. */
  @Override
  public void close() {
    stopped = true;
    for (Thread thread : threads) {
      try {
        thread.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
