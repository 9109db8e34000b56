package io.github.limiter.it.harness;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A burst of GETs spread round-robin over several targets, as a load balancer would: counts what
 * was admitted (2xx) and rejected (429) and how long the burst took.
 *
 * @param admitted responses with a 2xx status
 * @param rejected responses with status 429
 * @param elapsed from the first request sent to the last response received
 * @param admittedByTarget admissions per target, in target order
 */
public record Burst(int admitted, int rejected, Duration elapsed, Map<URI, Integer> admittedByTarget) {

  /** Sends {@code requests} GETs one after another, request i to {@code targets[i % n]}. */
  public static Burst roundRobin(List<URI> targets, int requests) {
    Map<URI, Integer> byTarget = new LinkedHashMap<>();
    targets.forEach(t -> byTarget.put(t, 0));
    int admitted = 0;
    int rejected = 0;
    long start = System.nanoTime();
    for (int i = 0; i < requests; i++) {
      URI target = targets.get(i % targets.size());
      HttpResponse<String> response = Http.get(target);
      if (response.statusCode() / 100 == 2) {
        admitted++;
        byTarget.merge(target, 1, Integer::sum);
      } else if (response.statusCode() == 429) {
        rejected++;
      } else {
        throw new AssertionError("GET " + target + ": expected 2xx or 429, was " + response.statusCode()
            + " " + response.headers().map() + "\n" + response.body());
      }
    }
    return new Burst(admitted, rejected, Duration.ofNanos(System.nanoTime() - start), byTarget);
  }

  /** Seconds, for refill arithmetic. */
  public double seconds() {
    return elapsed.toNanos() / 1e9;
  }

  @Override
  public String toString() {
    return admitted + " admitted, " + rejected + " rejected in " + String.format("%.3f s", seconds())
        + ", admitted per node " + admittedByTarget.values();
  }
}
