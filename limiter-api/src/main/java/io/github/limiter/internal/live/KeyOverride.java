package io.github.limiter.internal.live;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import java.util.List;

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
      for (Kind kind : values()) {
        if (kind.configName.equals(text)) {
          return kind;
        }
      }
      throw new IllegalArgumentException(
          "expected one of "
              + List.of(values()).stream().map(Kind::configName).toList()
              + ", was '"
              + text
              + "'");
    }
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
