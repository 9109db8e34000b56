package io.github.limiter;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of a store's health.
 *
 * @param up whether the store is deciding by itself (for Redis: reachable and breaker closed)
 * @param breaker the circuit breaker's state: {@code closed}, {@code open} or {@code half-open};
 *     {@code closed} for stores without one
 * @param lastError the last error seen, if any
 * @param lastErrorAt when it was seen
 */
public record StoreHealth(
    boolean up, String breaker, Optional<String> lastError, Optional<Instant> lastErrorAt) {

  private static final StoreHealth UP =
      new StoreHealth(true, "closed", Optional.empty(), Optional.empty());

  public StoreHealth {
    Objects.requireNonNull(breaker, "breaker");
    Objects.requireNonNull(lastError, "lastError");
    Objects.requireNonNull(lastErrorAt, "lastErrorAt");
  }

  /** A store that is up and has seen no error. */
  public static StoreHealth healthy() {
    return UP;
  }
}
