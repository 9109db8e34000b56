package io.github.limiter.bench;

/** The one limit every Redis subject enforces: high enough that every call is admitted. */
final class RedisPolicies {

  /** Permits per second, and the burst: far above what one Redis core can serve. */
  static final long RATE = 1_000_000;

  private RedisPolicies() {}
}
