package io.github.limiter.outbound;

import io.github.limiter.outbound.OutboundConfig.Retry;
import java.util.Locale;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * When a refused call is sent again: only an idempotent one, at most {@code retry-attempts} sends
 * in all, none started after {@code retry-max-time}; after the upstream's own wait when it gave
 * one, else after exponential backoff with full jitter (a uniform random wait up to {@code backoff
 * × 2ⁿ⁻¹}, at most {@code max-backoff}), so that refused clients do not come back in step.
 */
final class RetryPlan {

  /** No retry. */
  static final long STOP = -1;

  /** The methods RFC 9110 defines as idempotent. */
  private static final Set<String> IDEMPOTENT =
      Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");

  private final Retry retry;
  private final RandomGenerator random;

  RetryPlan(Retry retry, RandomGenerator random) {
    this.retry = retry;
    this.random = random;
  }

  /** Whether a call with {@code method} may be sent twice. */
  static boolean idempotent(String method) {
    return method != null && IDEMPOTENT.contains(method.toUpperCase(Locale.ROOT));
  }

  /** Whether retries are on at all. */
  boolean enabled() {
    return retry.attempts() > 1;
  }

  /** The longest a retried call may take from its first send. */
  long maxTimeNanos() {
    return retry.maxTime().toNanos();
  }

  /**
   * The nanoseconds to wait before sending again after {@code sent} refused sends, the first
   * started {@code elapsed} nanoseconds ago, when the upstream asked for {@code upstreamWait} (0:
   * nothing); or {@link #STOP}.
   */
  long next(int sent, long elapsed, long upstreamWait) {
    if (sent >= retry.attempts()) {
      return STOP;
    }
    long wait = upstreamWait > 0 ? upstreamWait : jitter(sent);
    return elapsed + wait > retry.maxTime().toNanos() ? STOP : wait;
  }

  /** Full jitter: uniform in [0, min(max-backoff, backoff × 2^(sent-1))]. */
  long jitter(int sent) {
    long base = retry.backoff().toNanos();
    long cap = retry.maxBackoff().toNanos();
    int shift = Math.min(sent - 1, 62);
    long ceiling = base > (cap >> shift) ? cap : Math.min(cap, base << shift);
    return random.nextLong(ceiling + 1);
  }
}
