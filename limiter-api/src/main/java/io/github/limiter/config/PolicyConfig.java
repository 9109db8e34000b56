package io.github.limiter.config;

import io.github.limiter.Policy;
import java.time.Duration;
import java.util.Objects;

/**
 * A policy together with how adapters apply it: where the key comes from, what a request costs,
 * and the shaping and dry-run options.
 *
 * @param policy the limits themselves
 * @param key where the client identity comes from
 * @param onMissingKey what happens when that source yields no key
 * @param permits what one request costs
 * @param dryRun decide and send headers, but let would-be rejections pass (they are counted and logged)
 * @param shaping leaky-bucket shaping: how long an admitted request may wait for its departure
 */
public record PolicyConfig(
    Policy policy, KeySource key, MissingKey onMissingKey, long permits, boolean dryRun, Shaping shaping) {

  /** What a request without a key gets. */
  public enum MissingKey {
    /** Fall back to the client address. The default. */
    REMOTE_ADDRESS("remote-address"),
    /** Reject it as over the limit. */
    REJECT("reject"),
    /** Let it pass unlimited by this policy. */
    ALLOW("allow");

    private final String configName;

    MissingKey(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  /**
   * Leaky-bucket shaping, like nginx {@code limit_req}. An admitted request whose departure lies in
   * the future waits for it, but at most {@code maxDelay}; the first {@code delayAfter} requests of
   * the queue pass at once (nginx {@code delay=N}); {@code nodelay} passes every request at once,
   * still counted.
   */
  public record Shaping(boolean nodelay, Duration maxDelay, long delayAfter) {

    /** No waiting: the default for every algorithm but the leaky bucket. */
    public static final Shaping NONE = new Shaping(true, Duration.ZERO, 0);

    private static final Duration MAX_NANOS = Duration.ofNanos(Long.MAX_VALUE);

    public Shaping {
      Objects.requireNonNull(maxDelay, "maxDelay");
      if (maxDelay.isNegative()) {
        throw new IllegalArgumentException("maxDelay must not be negative, was " + maxDelay);
      }
      if (delayAfter < 0) {
        throw new IllegalArgumentException("delayAfter must not be negative, was " + delayAfter);
      }
    }

    /**
     * How long a request admitted with {@code delayNanos} until departure waits, given the
     * emission interval of its limit: 0 under nodelay, else the delay less the first {@code
     * delayAfter} slots, capped at {@code maxDelay}.
     */
    public long waitNanos(long delayNanos, long intervalNanos) {
      if (nodelay) {
        return 0;
      }
      long passing = delayAfter > Long.MAX_VALUE / intervalNanos ? Long.MAX_VALUE : delayAfter * intervalNanos;
      long wait = delayNanos - passing;
      // A max-delay beyond 292 years does not fit in nanoseconds: it caps nothing.
      long cap = maxDelay.compareTo(MAX_NANOS) >= 0 ? Long.MAX_VALUE : maxDelay.toNanos();
      return wait <= 0 ? 0 : Math.min(wait, cap);
    }
  }

  public PolicyConfig {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(onMissingKey, "onMissingKey");
    Objects.requireNonNull(shaping, "shaping");
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be at least 1, was " + permits);
    }
  }

  /** A policy keyed by client address, one permit a request, no shaping, not dry-run. */
  public static PolicyConfig of(Policy policy) {
    return new PolicyConfig(policy, KeySource.REMOTE_ADDRESS, MissingKey.REMOTE_ADDRESS, 1, false, Shaping.NONE);
  }

  public String name() {
    return policy.name();
  }
}
