package io.github.limiter.redis;

import io.github.limiter.Decision;
import io.github.limiter.tck.redis.Pause;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Threads deciding in a loop, bounded in time, recording each decision, its latency and any
 * throwable.
 */
final class Load implements AutoCloseable {

  /** One decision: when it ended (nanoTime), how long it took, and what it was. */
  record Sample(long endedAt, long latencyNanos, Decision decision) {}

  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();

  Load(int threadCount, long maxMillis, Supplier<Decision> decide) {
    long deadline = System.nanoTime() + maxMillis * 1_000_000L;
    for (int t = 0; t < threadCount; t++) {
      Thread thread =
          new Thread(
              () -> {
                while (!stop.get() && System.nanoTime() < deadline) {
                  long start = System.nanoTime();
                  try {
                    Decision d = decide.get();
                    long end = System.nanoTime();
                    samples.add(new Sample(end, end - start, d));
                  } catch (Throwable e) {
                    thrown.add(e);
                  }
                  // A short pause keeps 2 cores usable for the servers being killed and started.
                  Pause.millis(1);
                }
              },
              "load-" + t);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  List<Sample> samples() {
    return List.copyOf(samples);
  }

  static long percentile(List<Sample> samples, double p) {
    long[] latencies = samples.stream().mapToLong(Sample::latencyNanos).toArray();
    Arrays.sort(latencies);
    return latencies.length == 0
        ? 0
        : latencies[(int) Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(10_000);
    }
  }
}
