package io.github.limiter.internal.live;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.internal.names.ConfigNames;
import java.time.Duration;

/**
 * What an operator decided for one key of one policy, instead of its limits, until it expires: a
 * value, replaced whole.
 *
 * @param kind block, exempt, or limits of its own
 * @param policy for {@link Kind#LIMITS}, the policy with the key's own limits; else the policy
 * @param bound for {@link Kind#LIMITS}, the store's handle of {@code policy}; else null
 * @param expiresAt when it ends, in the live limits' clock; {@link Long#MAX_VALUE} for never
 */
public record KeyOverride(Kind kind, Policy policy, PolicyStore bound, long expiresAt) {

  /** The kinds of override. */
  public enum Kind {
    /** Every request of the key is refused. */
    BLOCK("block"),
    /** No request of the key is limited, nor charged. */
    EXEMPT("exempt"),
    /** The key decides under limits of its own, e.g. a big customer's. */
    LIMITS("limits");

    private final String configName;

    Kind(String configName) {
      this.configName = configName;
    }

    /** The name operators use, e.g. {@code block}. */
    public String configName() {
      return configName;
    }

    /**
     * Parses {@code block}, {@code exempt} or {@code limits}.
     *
     * @throws IllegalArgumentException naming the text and the accepted names
     */
    public static Kind fromConfigName(String text) {
      return ConfigNames.parse(Kind.class, Kind::configName, text);
    }
  }

  /**
   * The longest time to live of an override: 100 years, within what the clocks that time it hold
   * (292 years of nanoseconds in a long; 285 years of microseconds exact in the doubles of Redis's
   * scripts). An override without one lasts until removed.
   */
  public static final Duration MAX_TTL = Duration.ofDays(36_500);

  /**
   * When an override set at {@code now} for {@code ttl} ends, in the clock of {@code now}: {@link
   * Long#MAX_VALUE} (never) for a null ttl.
   *
   * @throws IllegalArgumentException naming a ttl that is not above 0, or above {@link #MAX_TTL}
   */
  static long expiresAt(long now, Duration ttl) {
    if (ttl == null) {
      return Long.MAX_VALUE;
    }
    if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(MAX_TTL) > 0) {
      boolean days = ttl.getNano() == 0 && ttl.getSeconds() % 86_400 == 0;
      throw new IllegalArgumentException(
          "ttl: expected a duration above 0 and at most 36500d (100 years), or none for an"
              + " override until removed, was "
              + (days ? ttl.toDays() + "d" : ttl.toString()));
    }
    return endsAt(now, ttl);
  }

  /**
   * {@code now} plus {@code remaining}, cut to {@link #MAX_TTL}: the clock's readings wrap, and are
   * compared as differences, so any origin holds it; a sum that lands on the reading that means
   * never ends a nanosecond earlier.
   */
  static long endsAt(long now, Duration remaining) {
    long end = now + (remaining.compareTo(MAX_TTL) < 0 ? remaining.toNanos() : MAX_TTL.toNanos());
    return end == Long.MAX_VALUE ? end - 1 : end;
  }

  /** Whether it still applies at {@code now}. */
  boolean appliesAt(long now) {
    return expiresAt == Long.MAX_VALUE || expiresAt - now > 0;
  }

  /** Nanoseconds from {@code now} until it ends; {@link Long#MAX_VALUE} for never. */
  public long remainingAt(long now) {
    return expiresAt == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, expiresAt - now);
  }

  /** The decision for a request of the key at {@code now}. */
  Decision decide(String key, long permits, long now) {
    return switch (kind) {
      case BLOCK -> {
        long left = remainingAt(now);
        yield left == Long.MAX_VALUE
            ? Decision.exceedsCapacity(policy.name(), policy.limits().get(0), 0, 0)
            : Decision.limited(policy.name(), policy.limits().get(0), left, left);
      }
      case EXEMPT ->
          Decision.allowed(
              policy.name(), policy.limits().get(0), policy.limits().get(0).burst(), 0, 0);
      case LIMITS -> bound.decide(key, permits);
    };
  }
}
