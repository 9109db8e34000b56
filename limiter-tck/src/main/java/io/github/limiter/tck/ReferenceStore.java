package io.github.limiter.tck;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.algorithm.PolicyFunction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The trivial store whose decisions every store must reproduce: one {@code long[]} per key in a
 * map, evaluated with {@link PolicyFunction#of(Policy)} ({@link PolicyFunction#fresh}, {@link
 * PolicyFunction#retryAfter}, {@link PolicyFunction#admit}, {@link PolicyFunction#reject}), under
 * one lock. It never forgets a key.
 *
 * <p>Time is the clock's reading minus its reading when the store was created, in whole ticks. With
 * a tick of 1 ns this is exactly the pure function. With a coarser tick (1 µs for Redis) the pure
 * functions run in tick units: every limit is rescaled so that one tick counts as one nanosecond,
 * and every duration in the decision is scaled back. That is the arithmetic a store with that
 * resolution performs, including its rounding of intervals up to whole ticks.
 */
public final class ReferenceStore implements RateLimitStore {

  private final NanoClock clock;
  private final long tick;
  private final long epoch;
  private final Map<Policy, Compiled> compiled = new HashMap<>();
  private final Map<Policy, Map<String, long[]>> states = new HashMap<>();

  /** A reference at 1 ns resolution. */
  public ReferenceStore(NanoClock clock) {
    this(clock, 1);
  }

  /**
   * A reference at {@code tickNanos} resolution.
   *
   * @throws IllegalArgumentException if {@code tickNanos} is below 1
   */
  public ReferenceStore(NanoClock clock, long tickNanos) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (tickNanos < 1) {
      throw new IllegalArgumentException("tickNanos must be at least 1, was " + tickNanos);
    }
    this.tick = tickNanos;
    this.epoch = clock.nanos();
  }

  /** Now, in ticks since creation. */
  private long now() {
    return Math.floorDiv(clock.nanos() - epoch, tick);
  }

  private Compiled compile(Policy policy) {
    return compiled.computeIfAbsent(policy, p -> new Compiled(p, tick));
  }

  @Override
  public synchronized Decision decide(Policy policy, String key, long permits) {
    Compiled c = compile(policy);
    long now = now();
    long[] state =
        states
            .computeIfAbsent(policy, p -> new HashMap<>())
            .computeIfAbsent(key, k -> c.function.fresh(now));
    long retry = c.function.retryAfter(state, now, permits);
    Decision scaled =
        retry == 0
            ? c.function.admit(state, now, permits)
            : c.function.reject(state, now, permits, retry);
    return c.unscale(scaled);
  }

  @Override
  public synchronized void adjust(Policy policy, String key, long delta) {
    Compiled c = compile(policy);
    long now = now();
    Map<String, long[]> keys = states.computeIfAbsent(policy, p -> new HashMap<>());
    long[] state =
        delta > 0 ? keys.computeIfAbsent(key, k -> c.function.fresh(now)) : keys.get(key);
    if (state != null) {
      c.function.adjust(state, now, delta);
    }
  }

  @Override
  public TimeSource timeSource() {
    return TimeSource.CALLER;
  }

  /** A policy's function in tick units, and the way back to the policy's own limits. */
  private static final class Compiled {
    final PolicyFunction function;
    final long tick;
    final Map<Limit, Limit> original = new IdentityHashMap<>();

    Compiled(Policy policy, long tick) {
      this.tick = tick;
      if (tick == 1) {
        this.function = PolicyFunction.of(policy);
        return;
      }
      List<Limit> scaled = new ArrayList<>();
      for (Limit limit : policy.limits()) {
        Limit s =
            new Limit(
                limit.permits(),
                Duration.ofNanos(-Math.floorDiv(-limit.periodNanos(), tick)),
                limit.burst(),
                limit.initial());
        original.put(s, limit);
        scaled.add(s);
      }
      this.function = PolicyFunction.of(policy.name(), policy.algorithm(), scaled);
    }

    Decision unscale(Decision d) {
      if (tick == 1) {
        return d;
      }
      Limit limit = original.get(d.limit());
      return switch (d.outcome()) {
        case ALLOWED ->
            Decision.allowed(
                d.policy(),
                limit,
                d.remaining(),
                d.resetAfterNanos() * tick,
                d.delayNanos() * tick);
        case LIMITED ->
            Decision.limited(
                d.policy(), limit, d.resetAfterNanos() * tick, d.retryAfterNanos() * tick);
        case EXCEEDS_CAPACITY ->
            Decision.exceedsCapacity(d.policy(), limit, d.remaining(), d.resetAfterNanos() * tick);
        case MISSING_KEY, UNKNOWN_PLAN, UNAVAILABLE, OVERLOADED ->
            throw new IllegalStateException("the pure functions never answer " + d);
      };
    }
  }
}
