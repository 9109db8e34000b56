package io.github.limiter;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to one request: everything an adapter needs to admit it or write a 429.
 *
 * <p>Times are held as nanoseconds so that deciding allocates nothing but this object; the {@link
 * Duration} accessors convert on demand.
 */
public final class Decision {

  /** Why a request was admitted or not. */
  public enum Outcome {
    /** Admitted. */
    ALLOWED,
    /**
     * Rejected: over the limit now; {@link #retryAfter()} says when the same request would pass.
     */
    LIMITED,
    /** Rejected: the request costs more permits than the limit can ever admit. */
    EXCEEDS_CAPACITY,
    /** Rejected: the store could not decide (outage under fail-closed, or a full store). */
    UNAVAILABLE,
    /**
     * Rejected: the request has no key under a policy with {@code on-missing-key=reject}. It never
     * passes as it is, so there is no {@link #retryAfter()}; no store was asked.
     */
    MISSING_KEY,
    /**
     * Rejected: the request names a plan the policy does not know, under {@code
     * on-unknown-plan=reject}. It never passes as it is, so there is no {@link #retryAfter()}; no
     * store was asked.
     */
    UNKNOWN_PLAN,
    /**
     * Rejected: the server is at its concurrency limit for a request of this criticality (an
     * adaptive limit, or the share of a limit kept for more critical requests). It is about the
     * server, not the client: rendered as the unavailable status (503) with a {@link
     * #retryAfter()}.
     */
    OVERLOADED
  }

  private final Outcome outcome;
  private final String policy;
  private final Limit limit;
  private final long remaining;
  private final long resetAfterNanos;
  private final long retryAfterNanos;
  private final long delayNanos;
  private final boolean verified;

  private Decision(
      Outcome outcome,
      String policy,
      Limit limit,
      long remaining,
      long resetAfterNanos,
      long retryAfterNanos,
      long delayNanos,
      boolean verified) {
    this.outcome = outcome;
    this.policy = policy;
    this.limit = limit;
    this.remaining = remaining;
    this.resetAfterNanos = resetAfterNanos;
    this.retryAfterNanos = retryAfterNanos;
    this.delayNanos = delayNanos;
    this.verified = verified;
  }

  /**
   * An admission.
   *
   * @param limit the limit with the fewest remaining permits
   * @param remaining permits that could still be admitted now, under every limit
   * @param resetAfterNanos time until that limit is back to fresh
   * @param delayNanos time until the request departs (leaky bucket), else 0
   */
  public static Decision allowed(
      String policy, Limit limit, long remaining, long resetAfterNanos, long delayNanos) {
    return new Decision(
        Outcome.ALLOWED, policy, limit, remaining, resetAfterNanos, 0, delayNanos, true);
  }

  /** A rejection by a limit; the same request would be admitted after {@code retryAfterNanos}. */
  public static Decision limited(
      String policy, Limit limit, long resetAfterNanos, long retryAfterNanos) {
    return new Decision(
        Outcome.LIMITED, policy, limit, 0, resetAfterNanos, retryAfterNanos, 0, true);
  }

  /** A rejection of a request that costs more than {@code limit} can ever admit. */
  public static Decision exceedsCapacity(
      String policy, Limit limit, long remaining, long resetAfterNanos) {
    return new Decision(
        Outcome.EXCEEDS_CAPACITY, policy, limit, remaining, resetAfterNanos, 0, 0, true);
  }

  /**
   * A rejection of a request without a key under a policy that rejects such requests; {@code limit}
   * is the policy's first. Nothing is known about any client's state, so nothing remains.
   */
  public static Decision missingKey(String policy, Limit limit) {
    return new Decision(Outcome.MISSING_KEY, policy, limit, 0, 0, 0, 0, true);
  }

  /**
   * A rejection of a request whose plan {@code policy} does not know, under a policy that rejects
   * such requests; {@code limit} is the policy's first. No store was asked, so nothing remains.
   */
  public static Decision unknownPlan(String policy, Limit limit) {
    return new Decision(Outcome.UNKNOWN_PLAN, policy, limit, 0, 0, 0, 0, true);
  }

  /**
   * A rejection because the server is at its concurrency limit for this request's criticality;
   * retry after {@code retryAfterNanos}.
   */
  public static Decision overloaded(String policy, Limit limit, long retryAfterNanos) {
    return new Decision(Outcome.OVERLOADED, policy, limit, 0, 0, retryAfterNanos, 0, true);
  }

  /** A rejection because the store could not decide; retry after {@code retryAfterNanos}. */
  public static Decision unavailable(String policy, Limit limit, long retryAfterNanos) {
    return new Decision(Outcome.UNAVAILABLE, policy, limit, 0, 0, retryAfterNanos, 0, false);
  }

  /** A copy marked as not verified by the configured store (fail-open, or a local fallback). */
  public Decision unverified() {
    return verified
        ? new Decision(
            outcome, policy, limit, remaining, resetAfterNanos, retryAfterNanos, delayNanos, false)
        : this;
  }

  /** An unverified admission, for fail-open: nothing is known about the remaining permits. */
  public static Decision allowedUnverified(String policy, Limit limit) {
    return new Decision(Outcome.ALLOWED, policy, limit, limit.burst(), 0, 0, 0, false);
  }

  public Outcome outcome() {
    return outcome;
  }

  /** Whether the request may proceed. */
  public boolean isAllowed() {
    return outcome == Outcome.ALLOWED;
  }

  /** The name of the policy that decided. */
  public String policy() {
    return policy;
  }

  /** The limit this decision reports on: the one that rejected, or the one nearest to rejecting. */
  public Limit limit() {
    return limit;
  }

  /** Permits that could still be admitted right now. */
  public long remaining() {
    return remaining;
  }

  /** Time until the reported limit is back to fresh (full bucket, empty window). */
  public Duration resetAfter() {
    return Duration.ofNanos(resetAfterNanos);
  }

  public long resetAfterNanos() {
    return resetAfterNanos;
  }

  /**
   * The earliest time after which the same request would be admitted, or empty when it never would
   * ({@link Outcome#EXCEEDS_CAPACITY}, {@link Outcome#MISSING_KEY}, {@link Outcome#UNKNOWN_PLAN}).
   * Zero for an admission.
   */
  public Optional<Duration> retryAfter() {
    return neverPasses() ? Optional.empty() : Optional.of(Duration.ofNanos(retryAfterNanos));
  }

  /** {@link #retryAfter()} in nanoseconds; {@link Long#MAX_VALUE} means never. */
  public long retryAfterNanos() {
    return neverPasses() ? Long.MAX_VALUE : retryAfterNanos;
  }

  /** Whether the same request would never be admitted, however long it waits. */
  public boolean neverPasses() {
    return outcome == Outcome.EXCEEDS_CAPACITY
        || outcome == Outcome.MISSING_KEY
        || outcome == Outcome.UNKNOWN_PLAN;
  }

  /** For the leaky bucket, the time until this admitted request departs (is processed). */
  public Duration delay() {
    return Duration.ofNanos(delayNanos);
  }

  public long delayNanos() {
    return delayNanos;
  }

  /**
   * False when the configured store did not make this decision: a fail-open admission during an
   * outage, a local fallback, or a fail-closed rejection.
   */
  public boolean isVerified() {
    return verified;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Decision d
        && outcome == d.outcome
        && remaining == d.remaining
        && resetAfterNanos == d.resetAfterNanos
        && retryAfterNanos == d.retryAfterNanos
        && delayNanos == d.delayNanos
        && verified == d.verified
        && policy.equals(d.policy)
        && limit.equals(d.limit);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        outcome, policy, limit, remaining, resetAfterNanos, retryAfterNanos, delayNanos, verified);
  }

  @Override
  public String toString() {
    return "Decision["
        + outcome
        + ", policy="
        + policy
        + ", limit="
        + limit
        + ", remaining="
        + remaining
        + ", resetAfter="
        + resetAfter()
        + ", retryAfter="
        + retryAfter().map(Duration::toString).orElse("never")
        + ", delay="
        + delay()
        + (verified ? "" : ", unverified")
        + "]";
  }
}
