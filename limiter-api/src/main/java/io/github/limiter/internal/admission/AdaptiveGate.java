package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.algorithm.AdaptiveLimit;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.metrics.ConcurrencyGauges;

/**
 * The requests in flight under one adaptive concurrency policy on this node, and the {@link
 * AdaptiveLimit} that their latencies move. It decides like a store, for every key alike, so that
 * all-or-nothing admission charges and refunds it as any policy; {@link Admission#finish} gives a
 * request's permits back with its latency, measured on this gate's clock.
 *
 * <p>One lock guards the count and the controller: a decision and a release each hold it for a few
 * arithmetic steps, and allocate nothing but the decision.
 */
public final class AdaptiveGate implements RateLimitStore {

  private final Policy policy;
  private final Limit ceiling;
  private final NanoClock clock;
  private final AdaptiveLimit controller;
  private final long retryAfterNanos;
  private final double criticalShare;
  private final PolicyLimiter limiter;

  private long inFlight;

  public AdaptiveGate(PolicyConfig config, NanoClock clock) {
    PolicyConfig.Adaptive adaptive = config.overload().adaptive();
    this.policy = config.policy();
    this.ceiling = policy.limits().get(0);
    this.clock = clock;
    this.controller =
        new AdaptiveLimit(
            adaptive.floor(), adaptive.ceiling(), adaptive.initial(), adaptive.tolerance());
    this.retryAfterNanos = ceiling.periodNanos();
    this.criticalShare = config.overload().criticalShare();
    this.limiter = Limiter.of(this).bind(policy);
  }

  /** This gate, bound to its policy, as the admission step decides with. */
  public PolicyLimiter limiter() {
    return limiter;
  }

  /** The clock that latencies are measured with. */
  public NanoClock clock() {
    return clock;
  }

  /**
   * The limit now. While a probe holds requests at its level, critical ones keep the share of the
   * learned limit reserved for them on top of it, so that a probe costs them nothing.
   */
  public synchronized long limit() {
    return controller.probing() ? controller.limit() + reserve() : controller.limit();
  }

  /**
   * The permits a request of {@code criticality} must leave free under {@link #limit()}: the shares
   * kept for more critical requests. While probing, a less critical request stays within the
   * probe's level and within what the learned limit leaves it, so that what a probe admits never
   * crowds critical requests out of the learned limit once the probe ends.
   */
  synchronized long headroom(Criticality criticality) {
    if (!controller.probing()) {
      return criticality.headroom(controller.limit(), criticalShare);
    }
    if (criticality == Criticality.CRITICAL) {
      return 0;
    }
    long learned = controller.learnedLimit();
    long usable =
        Math.min(controller.limit(), learned - criticality.headroom(learned, criticalShare));
    return limit() - usable;
  }

  private long reserve() {
    return Criticality.reserved(controller.learnedLimit(), criticalShare);
  }

  /** Whether a probe is measuring the baseline now. */
  public synchronized boolean probing() {
    return controller.probing();
  }

  /** The permits held by requests in flight now. */
  public synchronized long inFlight() {
    return inFlight;
  }

  /** The latency without queueing, in nanoseconds, as measured; 0 before anything was. */
  public synchronized long baselineNanos() {
    return controller.baselineNanos();
  }

  /** The average latency of the last window measured, in nanoseconds; 0 before the first. */
  public synchronized long latencyNanos() {
    return controller.lastAverageNanos();
  }

  /**
   * Admits {@code permits} while they fit under the limit; {@code remaining} is what is left of it,
   * which the criticality of the request then checks against the share it must leave free.
   */
  @Override
  public synchronized Decision decide(Policy decided, String key, long permits) {
    long limit = limit();
    if (inFlight + permits > limit) {
      return Decision.overloaded(policy.name(), ceiling, retryAfterNanos);
    }
    inFlight += permits;
    return Decision.allowed(policy.name(), ceiling, limit - inFlight, retryAfterNanos, 0);
  }

  /** Gives back permits that were not used (all-or-nothing refunds); no latency to learn from. */
  @Override
  public synchronized void adjust(Policy adjusted, String key, long delta) {
    inFlight = Math.max(0, inFlight + Math.min(0, delta));
  }

  /**
   * A request that held {@code permits} ended {@code latencyNanos} after it was admitted, at {@code
   * now} on {@link #clock()}: its permits come back, and its latency moves the limit.
   */
  public synchronized void release(long permits, long latencyNanos, long now) {
    controller.sample(latencyNanos, (int) Math.min(Integer.MAX_VALUE, inFlight), now);
    inFlight = Math.max(0, inFlight - permits);
  }

  /** Its gauges: read when a metrics backend scrapes. */
  public ConcurrencyGauges gauges() {
    return new ConcurrencyGauges(
        policy.name(), this::limit, this::inFlight, this::latencyNanos, this::baselineNanos);
  }

  @Override
  public TimeSource timeSource() {
    return TimeSource.LOCAL_MONOTONIC;
  }

  @Override
  public String toString() {
    return "AdaptiveGate[" + policy.name() + ", limit " + limit() + "]";
  }
}
