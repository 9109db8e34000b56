package io.github.limiter.outbound;

import io.github.limiter.Algorithm;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One call that an {@link OutboundLimiter} let go out, from {@link OutboundLimiter#begin}: end it
 * once with the upstream's answer, so that a refusal or a "nothing remains" blocks calls to that
 * upstream on every node, or {@linkplain #abandon() abandon} it when no answer came.
 */
public final class OutboundCall {

  private final OutboundLimiter limiter;
  private final String upstream;
  private final String key;
  private final boolean charged;
  private final long startNanos;
  private final AtomicBoolean ended = new AtomicBoolean();

  OutboundCall(
      OutboundLimiter limiter, String upstream, String key, boolean charged, long startNanos) {
    this.limiter = limiter;
    this.upstream = upstream;
    this.key = key;
    this.charged = charged;
    this.startNanos = startNanos;
  }

  /** The upstream called, {@code scheme://host:port}. */
  public String upstream() {
    return upstream;
  }

  /**
   * Ends the call with the upstream's answer: its status, and its header fields by name (null for
   * one it did not send). Reads {@code Retry-After} and the rate-limit fields; a pause they ask for
   * blocks every call to the upstream (and credential) in the store, cut to {@code max-block}.
   * Malformed values are ignored. Only the first end of a call counts.
   *
   * @return the pause the upstream asked for, zero if none
   */
  public Duration end(int status, Function<String, String> header) {
    return Duration.ofNanos(endNanos(status, header));
  }

  long endNanos(int status, Function<String, String> header) {
    if (!ended.compareAndSet(false, true)) {
      return 0;
    }
    release();
    return limiter.answered(key, status, header);
  }

  /** Ends a call that got no answer (an I/O error): gives back what a concurrency limit holds. */
  public void abandon() {
    if (ended.compareAndSet(false, true)) {
      release();
    }
  }

  /** Whether this call holds a concurrency permit until it ends. */
  boolean holdsPermit() {
    return charged && limiter.policy().algorithm() == Algorithm.CONCURRENCY;
  }

  long startNanos() {
    return startNanos;
  }

  String key() {
    return key;
  }

  private void release() {
    if (holdsPermit()) {
      limiter.release(this);
    }
  }
}
