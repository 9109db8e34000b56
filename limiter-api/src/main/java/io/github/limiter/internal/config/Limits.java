package io.github.limiter.internal.config;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import java.time.Duration;
import java.util.List;

/** The value of {@code limits} under a policy's algorithm, and what it can admit. */
final class Limits {

  private Limits() {}

  /**
   * The limits of {@code text} under {@code algorithm}: for concurrency one whole number of
   * requests in flight, whose Retry-After is {@code retryAfter} (the default if that was bad); for
   * the others, rates and windows.
   *
   * @throws IllegalArgumentException showing the text and what was expected
   */
  static List<Limit> parse(String text, Algorithm algorithm, Duration retryAfter) {
    String trimmed = text.trim();
    boolean bare = trimmed.matches("\\d+");
    if (algorithm != Algorithm.CONCURRENCY && !(algorithm == null && bare)) {
      if (bare) {
        throw new IllegalArgumentException(
            "a bare number limits requests in flight, with algorithm=concurrency; "
                + algorithm
                + " limits are rates such as '10/s' or '10/s burst=20, 1000/h', was '"
                + trimmed
                + "'");
      }
      return Limit.parseAll(text);
    }
    long max = bare && trimmed.length() <= 7 ? Long.parseLong(trimmed) : -1;
    if (max < 1 || max > Policy.MAX_IN_FLIGHT) {
      throw new IllegalArgumentException(
          "a concurrency limit is the most requests in flight per key, a whole number from 1 to "
              + Policy.MAX_IN_FLIGHT
              + " such as 4, was '"
              + trimmed
              + "'");
    }
    Duration hint = retryAfter != null ? retryAfter : PolicySettings.RETRY_AFTER.fallback();
    return List.of(Limit.of(max, hint));
  }

  /** The most one request can ever be admitted for: the smallest limit's capacity. */
  static long capacity(Algorithm algorithm, List<Limit> limits) {
    return limits.stream()
        .mapToLong(l -> algorithm.isBucket() ? l.burst() : l.permits())
        .min()
        .orElseThrow();
  }
}
