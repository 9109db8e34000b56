package io.github.limiter;

import io.github.limiter.internal.names.ConfigNames;

/** The algorithms, named as in configuration. */
public enum Algorithm {
  /**
   * Count per aligned window; admits while count &lt; N. Cheap, but lets 2N through across a
   * boundary.
   */
  FIXED_WINDOW("fixed-window"),
  /** Two counters, interpolated: admits while prev·(1 − elapsed/W) + curr &lt; N. */
  SLIDING_WINDOW_COUNTER("sliding-window-counter"),
  /** Exact: one timestamp per admitted permit within the window. Memory O(N) per key. */
  SLIDING_WINDOW_LOG("sliding-window-log"),
  /** Rate r, capacity b: bursts up to b, average r. */
  TOKEN_BUCKET("token-bucket"),
  /** Virtual queue (GCRA): admits while level &lt; capacity and says when each request departs. */
  LEAKY_BUCKET("leaky-bucket"),
  /**
   * Requests in flight: admits while held + permits &le; N. Never refills: a permit comes back only
   * when its request ends. The limit's period is the Retry-After a rejection gives.
   */
  CONCURRENCY("concurrency");

  private final String configName;

  Algorithm(String configName) {
    this.configName = configName;
  }

  /** The name used in configuration and on the command line, e.g. {@code token-bucket}. */
  public String configName() {
    return configName;
  }

  /** Whether limits of this algorithm are a rate plus a capacity, rather than N per window. */
  public boolean isBucket() {
    return this == TOKEN_BUCKET || this == LEAKY_BUCKET;
  }

  /**
   * Parses a configuration name such as {@code token-bucket}.
   *
   * @throws IllegalArgumentException naming the text and the accepted names
   */
  public static Algorithm fromConfigName(String text) {
    return ConfigNames.parse(Algorithm.class, Algorithm::configName, text);
  }

  @Override
  public String toString() {
    return configName;
  }
}
