package io.github.limiter.it.harness;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A burst of GETs spread round-robin over several targets, as a load balancer would: counts what
 * was admitted (2xx) and rejected (429) and how long the burst took. Bounded: a fixed number of
 * requests, each with a timeout.
 *
 * @param admitted responses with a 2xx status
 * @param rejected responses with status 429
 * @param elapsed from the first request sent to the last response received: every decision of the
 *     burst lies within it
 * @param dense from the first response received to the last request sent: every decision of the
 *     burst spans at least this, and requests kept coming all along
 * @param admittedByTarget admissions per target, in target order
 */
public record Burst(
    int admitted,
    int rejected,
    Duration elapsed,
    Duration dense,
    Map<URI, Integer> admittedByTarget) {

  /**
   * Sends {@code requests} GETs from {@code clients} threads at once, request i to {@code targets[i
   * % n]}: dense enough that a permit refilled during the burst is taken at once.
   */
  public static Burst roundRobin(List<URI> targets, int requests, int clients) {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    Map<URI, AtomicInteger> byTarget = new LinkedHashMap<>();
    targets.forEach(t -> byTarget.put(t, new AtomicInteger()));
    AtomicLong firstResponse = new AtomicLong(Long.MAX_VALUE);
    AtomicLong lastSend = new AtomicLong(Long.MIN_VALUE);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    long start = System.nanoTime();
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        workers.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                    URI target = targets.get(i % targets.size());
                    lastSend.accumulateAndGet(System.nanoTime(), Math::max);
                    HttpResponse<String> response = Http.get(target);
                    firstResponse.accumulateAndGet(System.nanoTime(), Math::min);
                    if (response.statusCode() / 100 == 2) {
                      admitted.incrementAndGet();
                      byTarget.get(target).incrementAndGet();
                    } else if (response.statusCode() == 429) {
                      rejected.incrementAndGet();
                    } else {
                      throw new AssertionError(
                          "GET "
                              + target
                              + ": expected 2xx or 429, was "
                              + response.statusCode()
                              + " "
                              + response.headers().map()
                              + "\n"
                              + response.body());
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> worker : workers) {
        worker.get(2, TimeUnit.MINUTES);
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof AssertionError failure) {
        throw failure;
      }
      throw new IllegalStateException("burst failed", e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException("burst did not finish", e);
    } finally {
      pool.shutdownNow();
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    Duration dense = Duration.ofNanos(Math.max(0, lastSend.get() - firstResponse.get()));
    Map<URI, Integer> counts = new LinkedHashMap<>();
    byTarget.forEach((t, n) -> counts.put(t, n.get()));
    return new Burst(admitted.get(), rejected.get(), elapsed, dense, counts);
  }

  /** {@link #elapsed} in seconds. */
  public double seconds() {
    return elapsed.toNanos() / 1e9;
  }

  /** {@link #dense} in seconds. */
  public double denseSeconds() {
    return dense.toNanos() / 1e9;
  }

  @Override
  public String toString() {
    return admitted
        + " admitted, "
        + rejected
        + " rejected in "
        + String.format("%.3f s (dense %.3f s)", seconds(), denseSeconds())
        + ", admitted per node "
        + admittedByTarget.values();
  }
}
