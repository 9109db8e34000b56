package io.github.limiter.outbound;

import java.time.Duration;
import java.util.Optional;

/**
 * A call that an outbound policy refused to send: its budget stayed spent, or the upstream blocked
 * calls, for longer than {@code max-wait}. Carries how long until the same call could go out.
 * Through a Jakarta REST client it arrives as the cause of a {@code ProcessingException}.
 */
public final class OutboundLimitException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String policy;
  private final String upstream;
  private final long waitNanos;
  private final boolean upstreamBlock;

  OutboundLimitException(String policy, String upstream, long waitNanos, boolean upstreamBlock) {
    super(message(policy, upstream, waitNanos, upstreamBlock), null, false, false);
    this.policy = policy;
    this.upstream = upstream;
    this.waitNanos = waitNanos;
    this.upstreamBlock = upstreamBlock;
  }

  private static String message(
      String policy, String upstream, long waitNanos, boolean upstreamBlock) {
    String why =
        upstreamBlock
            ? "the upstream asked for a pause"
            : waitNanos == Long.MAX_VALUE
                ? "the call costs more than the limit can ever admit"
                : "its budget is spent";
    return "outbound policy '"
        + policy
        + "' refused a call to "
        + upstream
        + ": "
        + why
        + (waitNanos == Long.MAX_VALUE
            ? ""
            : "; retry after " + Duration.ofNanos(waitNanos).toMillis() + " ms");
  }

  /** The outbound policy that refused the call. */
  public String policy() {
    return policy;
  }

  /** The upstream called, {@code scheme://host:port}. */
  public String upstream() {
    return upstream;
  }

  /** How long until the same call could go out; empty if it never could (it costs too much). */
  public Optional<Duration> retryAfter() {
    return waitNanos == Long.MAX_VALUE
        ? Optional.empty()
        : Optional.of(Duration.ofNanos(waitNanos));
  }

  /** Whether the upstream blocked calls (Retry-After, nothing remaining), not the local budget. */
  public boolean isUpstreamBlock() {
    return upstreamBlock;
  }
}
