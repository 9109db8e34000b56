package io.github.limiter.redis;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Stops a dead Redis from costing every decision a timeout. After {@code threshold} consecutive
 * failures it opens: decisions take the fallback at once. After {@code openNanos} one caller is let
 * through as a probe (half-open); its success closes the breaker, its failure opens it again.
 */
final class CircuitBreaker {

  enum State {
    CLOSED("closed"),
    OPEN("open"),
    HALF_OPEN("half-open");

    final String label;

    State(String label) {
      this.label = label;
    }
  }

  /** The last failure, for health reports. */
  record Failure(String message, Instant at) {}

  private final int threshold;
  private final long openNanos;
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicReference<State> state = new AtomicReference<>(State.CLOSED);
  private volatile long openedAt;
  private volatile Failure lastFailure;

  CircuitBreaker(int threshold, long openNanos) {
    this.threshold = threshold;
    this.openNanos = openNanos;
  }

  /** Whether this caller may call Redis now; while half-open only the one probe may. */
  boolean tryAcquire() {
    State s = state.get();
    if (s == State.CLOSED) {
      return true;
    }
    if (s == State.OPEN && System.nanoTime() - openedAt >= openNanos) {
      return state.compareAndSet(State.OPEN, State.HALF_OPEN);
    }
    return false;
  }

  void onSuccess() {
    if (failures.get() != 0) {
      failures.set(0);
    }
    if (state.get() != State.CLOSED) {
      state.set(State.CLOSED);
    }
  }

  void onFailure(Throwable error) {
    lastFailure = new Failure(describe(error), Instant.now());
    State s = state.get();
    if (s == State.HALF_OPEN) {
      open(State.HALF_OPEN);
    } else if (failures.incrementAndGet() >= threshold && s == State.CLOSED) {
      open(State.CLOSED);
    }
  }

  private void open(State from) {
    openedAt = System.nanoTime();
    state.compareAndSet(from, State.OPEN);
  }

  State state() {
    return state.get();
  }

  Optional<Failure> lastFailure() {
    return Optional.ofNullable(lastFailure);
  }

  /** How long a fail-closed caller should wait: until the next probe, at least a millisecond. */
  long retryAfterNanos() {
    if (state.get() != State.OPEN) {
      return openNanos;
    }
    long left = openNanos - (System.nanoTime() - openedAt);
    return Math.max(left, 1_000_000L);
  }

  static String describe(Throwable error) {
    StringBuilder text = new StringBuilder(error.getClass().getSimpleName());
    if (error.getMessage() != null) {
      text.append(": ").append(error.getMessage());
    }
    Throwable cause = error.getCause();
    if (cause != null && cause != error && cause.getMessage() != null) {
      text.append(" (").append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage()).append(')');
    }
    return text.toString();
  }
}
