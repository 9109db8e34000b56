package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.internal.log.LogText;
import io.github.limiter.internal.log.RateLimitedLog;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Stops a dead Redis node from costing every decision a timeout. After {@code threshold}
 * consecutive failures it opens: decisions take the fallback at once. After {@code openNanos} one
 * caller is let through as a probe (half-open); its success closes the breaker, its failure opens
 * it again. One per node, so that a dead master degrades only its own slots.
 *
 * <p>It logs each opening and closing (at most one opening per {@link #LOG_INTERVAL} when it
 * flaps), and while it is open, a summary of the decisions that fell back every {@link
 * #LOG_INTERVAL} (a shorter interval in tests).
 */
final class CircuitBreaker {

  static final Logger LOG = Logger.getLogger(RedisStore.class.getName());

  /**
   * How often an open breaker summarises its fallbacks, and the least time between two openings
   * logged.
   */
  static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

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

  private final String node;
  private final NanoClock clock;
  private final int threshold;
  private final long openNanos;
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicReference<State> state = new AtomicReference<>(State.CLOSED);
  private volatile long openedAt;

  /** When it last opened from closed; probes that fail do not move it. */
  private volatile long openSince;

  private volatile Failure lastFailure;
  private final long logIntervalNanos;
  private final RateLimitedLog openings;

  /** Whether the current opening was logged, so that its closing is too. */
  private volatile boolean openingLogged;

  private final LongAdder fallbacks = new LongAdder();
  private final LongAdder fallbacksSinceOpen = new LongAdder();
  private final AtomicLong summaryDue = new AtomicLong();

  CircuitBreaker(
      String node, int threshold, long openNanos, Duration logInterval, NanoClock clock) {
    this.node = node;
    this.clock = clock;
    this.threshold = threshold;
    this.openNanos = openNanos;
    this.logIntervalNanos = logInterval.toNanos();
    this.openings = new RateLimitedLog(LOG, CircuitBreaker.class, logInterval, clock);
  }

  /** Whether every caller may call Redis now (no failure has opened the breaker). */
  boolean closed() {
    return state.get() == State.CLOSED;
  }

  /** Whether this caller may call Redis now; while half-open only the one probe may. */
  boolean tryAcquire() {
    State s = state.get();
    if (s == State.CLOSED) {
      return true;
    }
    if (s == State.OPEN && clock.nanos() - openedAt >= openNanos) {
      return state.compareAndSet(State.OPEN, State.HALF_OPEN);
    }
    return false;
  }

  void onSuccess() {
    if (failures.get() != 0) {
      failures.set(0);
    }
    State s = state.get();
    if (s != State.CLOSED && state.compareAndSet(s, State.CLOSED) && openingLogged) {
      openingLogged = false;
      long millis = Duration.ofNanos(clock.nanos() - openSince).toMillis();
      LOG.logp(
          Level.INFO,
          CircuitBreaker.class.getName(),
          "onSuccess",
          "Redis circuit breaker for "
              + node
              + " closed: a probe succeeded; "
              + fallbacksSinceOpen.sumThenReset()
              + " decisions fell back to the failure mode while it was open (open for "
              + millis
              + " ms)");
    }
  }

  void onFailure(Throwable error) {
    lastFailure = new Failure(describe(error), Instant.now());
    State s = state.get();
    if (s == State.HALF_OPEN) {
      openedAt = clock.nanos();
      state.compareAndSet(State.HALF_OPEN, State.OPEN);
    } else if (failures.incrementAndGet() >= threshold && s == State.CLOSED) {
      openedAt = clock.nanos();
      if (state.compareAndSet(State.CLOSED, State.OPEN)) {
        openSince = openedAt;
        summaryDue.set(openedAt + logIntervalNanos);
        fallbacks.reset();
        fallbacksSinceOpen.reset();
        openingLogged =
            openings.log(
                Level.WARNING,
                "onFailure",
                "Redis circuit breaker for "
                    + node
                    + " opened after "
                    + failures.get()
                    + " consecutive failures; decisions on it follow each policy's failure mode until a probe"
                    + " succeeds. Last failure: "
                    + lastFailure.message());
      }
    }
  }

  /** Counts a decision that fell back; while open, logs how many did every log interval. */
  void onFallback() {
    fallbacks.increment();
    fallbacksSinceOpen.increment();
    if (state.get() == State.CLOSED) {
      return;
    }
    long due = summaryDue.get();
    long now = clock.nanos();
    if (now - due >= 0 && summaryDue.compareAndSet(due, now + logIntervalNanos)) {
      Failure failure = lastFailure;
      LOG.logp(
          Level.WARNING,
          CircuitBreaker.class.getName(),
          "onFallback",
          "Redis circuit breaker for "
              + node
              + " still open: "
              + fallbacks.sumThenReset()
              + " decisions fell back to the failure mode in the last "
              + Duration.ofNanos(logIntervalNanos).toMillis()
              + " ms"
              + (failure == null ? "" : "; last failure: " + failure.message()));
    }
  }

  String node() {
    return node;
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
    long left = openNanos - (clock.nanos() - openedAt);
    return Math.max(left, 1_000_000L);
  }

  static String describe(Throwable error) {
    StringBuilder text = new StringBuilder(error.getClass().getSimpleName());
    if (error.getMessage() != null) {
      text.append(": ").append(error.getMessage());
    }
    Throwable cause = error.getCause();
    if (cause != null && cause != error && cause.getMessage() != null) {
      text.append(" (")
          .append(cause.getClass().getSimpleName())
          .append(": ")
          .append(cause.getMessage())
          .append(')');
    }
    return LogText.escape(text.toString());
  }
}
