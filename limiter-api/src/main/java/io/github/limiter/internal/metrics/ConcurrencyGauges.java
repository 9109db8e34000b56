package io.github.limiter.internal.metrics;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What an adaptive concurrency limit shows on gauges, tagged by policy only (never by client key),
 * read when a backend scrapes, never on the hot path.
 *
 * @param policy the policy's name, the {@code policy} tag
 * @param limit the limit now ({@code limiter.concurrency.limit})
 * @param inFlight the permits requests in flight hold ({@code limiter.concurrency.in.flight})
 * @param latencyNanos the average latency of the last window measured, in nanoseconds ({@code
 *     limiter.concurrency.latency}, in seconds)
 * @param baselineNanos the latency without queueing, as measured ({@code
 *     limiter.concurrency.latency.baseline}, in seconds)
 */
public record ConcurrencyGauges(
    String policy,
    LongSupplier limit,
    LongSupplier inFlight,
    LongSupplier latencyNanos,
    LongSupplier baselineNanos) {

  public ConcurrencyGauges {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(inFlight, "inFlight");
    Objects.requireNonNull(latencyNanos, "latencyNanos");
    Objects.requireNonNull(baselineNanos, "baselineNanos");
  }
}
