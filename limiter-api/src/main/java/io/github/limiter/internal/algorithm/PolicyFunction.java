package io.github.limiter.internal.algorithm;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import java.util.List;

/**
 * A policy's limits as one pure function over one key's state, all-or-nothing: a request is
 * admitted only if every limit admits it, and a rejected request charges none of them.
 *
 * <p>A store evaluates in two steps: {@link #retryAfter} on the current state (read only), then
 * either {@link #admit} on a copy it publishes, or {@link #reject} on the unchanged state. The
 * {@link #single()} form serves stores that keep a one-limit state in a single {@code long}.
 */
public final class PolicyFunction {

  private final String policy;
  private final LimitFunction[] limits;
  private final int[] offsets;
  private final int stateSize;

  private PolicyFunction(String policy, LimitFunction[] limits) {
    this.policy = policy;
    this.limits = limits;
    this.offsets = new int[limits.length];
    int size = 0;
    for (int i = 0; i < limits.length; i++) {
      offsets[i] = size;
      size += limits[i].stateSize();
    }
    this.stateSize = size;
  }

  /** Compiles {@code policy}; a store does this once, when it binds the policy. */
  public static PolicyFunction of(Policy policy) {
    return of(policy, 0);
  }

  /**
   * Compiles {@code policy} for a store whose time plus {@code epochOffset} is nanoseconds since
   * the epoch, which calendar quotas need; 0 when store time is epoch time.
   */
  public static PolicyFunction of(Policy policy, long epochOffset) {
    return of(policy.name(), policy.algorithm(), policy.limits(), epochOffset);
  }

  /** Compiles the limits of policy {@code policy} under {@code algorithm}, on epoch time. */
  public static PolicyFunction of(String policy, Algorithm algorithm, List<Limit> limits) {
    return of(policy, algorithm, limits, 0);
  }

  private static PolicyFunction of(
      String policy, Algorithm algorithm, List<Limit> limits, long epochOffset) {
    if (limits.isEmpty()) {
      throw new IllegalArgumentException("a policy needs at least one limit");
    }
    return new PolicyFunction(
        policy,
        limits.stream()
            .map(limit -> function(algorithm, limit, epochOffset))
            .toArray(LimitFunction[]::new));
  }

  /** The pure function of one limit under {@code algorithm}, on epoch time. */
  public static LimitFunction function(Algorithm algorithm, Limit limit) {
    return function(algorithm, limit, 0);
  }

  /**
   * The pure function of one limit under {@code algorithm}; a calendar quota is counted per period
   * whatever the algorithm, on store time plus {@code epochOffset}.
   */
  public static LimitFunction function(Algorithm algorithm, Limit limit, long epochOffset) {
    if (limit.isQuota()) {
      return new CalendarWindow(limit, epochOffset);
    }
    return switch (algorithm) {
      case FIXED_WINDOW -> new FixedWindow(limit);
      case SLIDING_WINDOW_COUNTER -> new SlidingWindowCounter(limit);
      case SLIDING_WINDOW_LOG -> new SlidingWindowLog(limit);
      case TOKEN_BUCKET -> new TokenBucket(limit);
      case LEAKY_BUCKET -> new LeakyBucket(limit);
      case CONCURRENCY -> new Concurrency(limit);
    };
  }

  /** The name of the policy, which every decision carries. */
  public String policy() {
    return policy;
  }

  /** The one-long form of a single-limit policy, or null when the state needs more than a long. */
  public LongStateFunction single() {
    return limits.length == 1 && limits[0] instanceof LongStateFunction f ? f : null;
  }

  /** Slots in one key's state. */
  public int stateSize() {
    return stateSize;
  }

  /** The state of a key first seen at {@code now}. */
  public long[] fresh(long now) {
    long[] state = new long[stateSize];
    for (int i = 0; i < limits.length; i++) {
      limits[i].fresh(state, offsets[i], now);
    }
    return state;
  }

  /**
   * The state under these limits of a key whose state was {@code fromState} under {@code from}, the
   * limits of the same policy and algorithm that these replace while the application runs. Each
   * limit takes its state from the old limit of the same period, else from the old limit at the
   * same position, by its algorithm's rule ({@link LimitFunction#carry}), a calendar quota only
   * from a quota and a rate only from a rate; a limit that has neither is new, and starts fresh.
   */
  public long[] carry(PolicyFunction from, long[] fromState, long now) {
    long[] state = new long[stateSize];
    for (int i = 0; i < limits.length; i++) {
      int old = from.predecessor(limits[i], i);
      if (old < 0) {
        limits[i].fresh(state, offsets[i], now);
      } else {
        limits[i].carry(from.limits[old], fromState, from.offsets[old], state, offsets[i], now);
      }
    }
    return state;
  }

  /**
   * The index of the limit of {@code limit}'s period here, else {@code position}; -1 if neither.
   */
  private int predecessor(LimitFunction limit, int position) {
    boolean quota = limit.limit().isQuota();
    for (int i = 0; i < limits.length; i++) {
      if (limits[i].limit().isQuota() == quota
          && limits[i].limit().period().equals(limit.limit().period())) {
        return i;
      }
    }
    // A quota takes over only a quota's count, a rate only a rate's state.
    return position < limits.length && limits[position].limit().isQuota() == quota ? position : -1;
  }

  /**
   * 0 if every limit admits {@code permits} at {@code now}; otherwise the nanoseconds until all
   * would, or {@link LimitFunction#NEVER}. Reads only.
   */
  public long retryAfter(long[] state, long now, long permits) {
    long retry = 0;
    for (int i = 0; i < limits.length; i++) {
      long wait = limits[i].retryAfter(state, offsets[i], now, permits);
      if (wait > retry) {
        retry = wait;
      }
    }
    return retry;
  }

  /** Charges every limit in {@code state}, which the caller owns, and returns the admission. */
  public Decision admit(long[] state, long now, long permits) {
    int binding = 0;
    long remaining = Long.MAX_VALUE;
    long delay = 0;
    for (int i = 0; i < limits.length; i++) {
      LimitFunction limit = limits[i];
      limit.admit(state, offsets[i], now, permits);
      long left = limit.remaining(state, offsets[i], now);
      if (left < remaining) {
        remaining = left;
        binding = i;
      }
      delay = Math.max(delay, limit.delay(state, offsets[i], now));
    }
    return Decision.allowed(
        policy,
        limits[binding].limit(),
        remaining,
        limits[binding].resetAfter(state, offsets[binding], now),
        delay);
  }

  /**
   * What {@code state} has left at {@code now}, read only: an admission of no permits under the
   * limit with the fewest permits left, with its reset; no delay.
   */
  public Decision peek(long[] state, long now) {
    int binding = 0;
    long remaining = Long.MAX_VALUE;
    for (int i = 0; i < limits.length; i++) {
      long left = limits[i].remaining(state, offsets[i], now);
      if (left < remaining) {
        remaining = left;
        binding = i;
      }
    }
    return Decision.allowed(
        policy,
        limits[binding].limit(),
        Math.max(0, remaining),
        limits[binding].resetAfter(state, offsets[binding], now),
        0);
  }

  /** The rejection for a request whose {@link #retryAfter} was {@code retry} (positive). */
  public Decision reject(long[] state, long now, long permits, long retry) {
    int binding = 0;
    for (int i = 0; i < limits.length; i++) {
      long wait = limits[i].retryAfter(state, offsets[i], now, permits);
      if (wait == retry) {
        binding = i;
        break;
      }
    }
    LimitFunction limit = limits[binding];
    long reset = limit.resetAfter(state, offsets[binding], now);
    return retry == LimitFunction.NEVER
        ? Decision.exceedsCapacity(
            policy, limit.limit(), limit.remaining(state, offsets[binding], now), reset)
        : Decision.limited(policy, limit.limit(), reset, retry);
  }

  /**
   * Charges {@code delta} permits under every limit in {@code state}, which the caller owns, as
   * debt where they are not admissible ({@link LimitFunction#charge}); or gives back {@code
   * -delta}.
   */
  public void adjust(long[] state, long now, long delta) {
    for (int i = 0; i < limits.length; i++) {
      if (delta > 0) {
        limits[i].charge(state, offsets[i], now, delta);
      } else if (delta < 0) {
        limits[i].refund(state, offsets[i], now, -delta);
      }
    }
  }

  /**
   * Whether {@code state} is fresh at {@code now} (full buckets, empty windows), so that forgetting
   * the key loses nothing; a limit with a non-default initial then starts again from it.
   */
  public boolean isFresh(long[] state, long now) {
    return resetAfter(state, now) == 0;
  }

  /**
   * The share of its capacity that forgetting {@code state} would give back at {@code now}, from 0
   * (fresh) to 1 (exhausted): under the limit where that share is most, the permits used over the
   * capacity. A share, not a count, so that keys of policies with different capacities compare: a
   * bounded store evicts the key that would regain least, so that flooding new keys cannot reset a
   * busy key.
   */
  public double usedShare(long[] state, long now) {
    double most = 0;
    for (int i = 0; i < limits.length; i++) {
      long burst = limits[i].limit().burst();
      most = Math.max(most, (double) (burst - limits[i].remaining(state, offsets[i], now)) / burst);
    }
    return most;
  }

  /** Nanoseconds until every limit is fresh: the time a stored key must live. */
  public long resetAfter(long[] state, long now) {
    long reset = 0;
    for (int i = 0; i < limits.length; i++) {
      reset = Math.max(reset, limits[i].resetAfter(state, offsets[i], now));
    }
    return reset;
  }

  /** The decision for a one-long state; see {@link #single()}. */
  public Decision admitted(LongStateFunction f, long state, long now) {
    return Decision.allowed(
        policy, f.limit(), f.remaining(state, now), f.resetAfter(state, now), f.delay(state, now));
  }

  /** The rejection for a one-long state; see {@link #single()}. */
  public Decision rejected(LongStateFunction f, long state, long now, long retry) {
    long reset = f.resetAfter(state, now);
    return retry == LimitFunction.NEVER
        ? Decision.exceedsCapacity(policy, f.limit(), f.remaining(state, now), reset)
        : Decision.limited(policy, f.limit(), reset, retry);
  }
}
