package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.internal.render.RateLimitResponse;
import io.github.limiter.internal.render.ResponseRenderer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A call rejected by a {@link Limited} policy. It carries the decision (retry-after, remaining, the
 * limit) and the policy, and how an HTTP adapter renders it. It has no stack trace, so a rejection
 * stays cheap; its message names the policy but never the key.
 */
public final class RateLimitExceededException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient Policy policy;
  private final transient Decision decision;
  private final transient ResponseRenderer renderer;

  /**
   * @param policy the policy that rejected
   * @param decision its rejection
   * @param renderer how HTTP adapters render it (status and headers as configured)
   * @throws IllegalArgumentException if {@code decision} admits
   */
  public RateLimitExceededException(Policy policy, Decision decision, ResponseRenderer renderer) {
    super(message(policy, decision), null, false, false);
    this.policy = policy;
    this.decision = decision;
    this.renderer = Objects.requireNonNull(renderer, "renderer");
  }

  private static String message(Policy policy, Decision decision) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(decision, "decision");
    if (decision.isAllowed()) {
      throw new IllegalArgumentException("not a rejection: " + decision);
    }
    return switch (decision.outcome()) {
      case EXCEEDS_CAPACITY ->
          "The call costs more than policy '" + policy.name() + "' can ever admit";
      case MISSING_KEY, UNKNOWN_PLAN ->
          "The call has no key, or no plan it knows, under policy '"
              + policy.name()
              + "', which rejects such calls";
      case UNAVAILABLE ->
          "Rate limiter unavailable for policy '"
              + policy.name()
              + "'; retry after "
              + ResponseRenderer.retryAfterSeconds(decision.retryAfterNanos())
              + " s";
      case OVERLOADED ->
          "Overloaded: policy '"
              + policy.name()
              + "' is at its concurrency limit for calls of this criticality; retry after "
              + ResponseRenderer.retryAfterSeconds(decision.retryAfterNanos())
              + " s";
      case LIMITED, ALLOWED ->
          "Rate limit of policy '"
              + policy.name()
              + "' exceeded; retry after "
              + ResponseRenderer.retryAfterSeconds(decision.retryAfterNanos())
              + " s";
    };
  }

  /** The policy that rejected. */
  public Policy policy() {
    return policy;
  }

  /** The rejection itself. */
  public Decision decision() {
    return decision;
  }

  /** The name of the policy that rejected. */
  public String policyName() {
    return policy.name();
  }

  /** When the same call would be admitted; empty when it never would (it costs too much). */
  public Optional<Duration> retryAfter() {
    return decision.retryAfter();
  }

  /** Permits left under the rejecting policy: 0 unless the call costs more than what is left. */
  public long remaining() {
    return decision.remaining();
  }

  /** The HTTP response for this rejection, as the servlet filter would write it. */
  public RateLimitResponse response() {
    return renderer.rejection(policy, decision);
  }

  /** The renderer, for adapters that also write the headers of admitted calls. */
  public ResponseRenderer renderer() {
    return renderer;
  }
}
