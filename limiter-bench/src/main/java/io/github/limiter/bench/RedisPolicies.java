package io.github.limiter.bench;

/**
 * The one limit every Redis subject enforces: by default high enough that every call is admitted.
 * The over-admission runs set {@code -Dlimiter.bench.rate} low, so that most calls are rejected and
 * every admission beyond the limit shows.
 */
final class RedisPolicies {

  /** Permits per second, and the burst: far above what one Redis core can serve by default. */
  static final long RATE = Long.getLong("limiter.bench.rate", 1_000_000);

  private RedisPolicies() {}
}
