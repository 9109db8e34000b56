package io.github.limiter.internal.insight;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.memory.InMemoryStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Candidate limits of one policy, tried on live traffic without deciding anything: the policy's
 * current limits still decide each request, while the candidate decides the same request (same key,
 * same cost) against state of its own, and its would-be rejections are counted, with the keys that
 * would have been rejected the most.
 *
 * <p>The candidate's state is in memory, on every store: a trial must never slow or fail a real
 * decision (no second Redis round trip on the request path, no failure policy of its own), and must
 * never charge the real state. So with Redis each node tries the candidate on the traffic it sees:
 * a key whose requests are spread over several nodes would-be-rejected less than under the applied
 * limits. Read a trial on a node that sees a key's whole traffic (sticky routing), or treat it as a
 * lower bound.
 *
 * <p>It ends after its period, or when the operator applies or discards it ({@link
 * ShadowTrials#apply}, {@link ShadowTrials#discard}); it is then kept for reading until the next
 * trial of its policy.
 */
public final class ShadowTrial {

  /** Where a trial is in its life. */
  public enum State {
    /** The candidate decides every request in shadow. */
    RUNNING,
    /** Its period passed; its counts stay as they were then. */
    ENDED,
    /** The operator applied its candidate limits. */
    APPLIED,
    /** The operator discarded it. */
    DISCARDED
  }

  /** The longest trial: one forgotten must not cost every request for ever. */
  public static final Duration MAX_PERIOD = Duration.ofDays(7);

  /** The keys of the would-be rejections counted at once. */
  static final int KEY_CAPACITY = 256;

  /** The keys of the would-be rejections listed. */
  static final int KEYS_SHOWN = 10;

  private final Policy current;
  private final Policy candidate;
  private final NanoClock clock;
  private final long started;
  private final long period;

  /** The candidate over its own state; null once the trial ended (its state is let go). */
  private volatile PolicyLimiter shadow;

  private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
  private volatile long endedAt;

  private final LongAdder requests = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final LongAdder wouldReject = new LongAdder();

  /** Guarded by itself. */
  private final SpaceSaving wouldRejectKeys = new SpaceSaving(KEY_CAPACITY);

  /**
   * A running trial of {@code candidate} limits for {@code current}, for {@code period}.
   *
   * @throws IllegalArgumentException naming what is wrong: limits the algorithm cannot take, a
   *     concurrency policy, a period not above 0 or over {@link #MAX_PERIOD}
   */
  ShadowTrial(Policy current, List<Limit> candidate, Duration period, NanoClock clock) {
    if (current.algorithm() == Algorithm.CONCURRENCY) {
      throw new IllegalArgumentException(
          "policy '"
              + current.name()
              + "': a concurrency limit cannot be tried in shadow (its permits come back when"
              + " requests end, which a trial does not follow); change it directly");
    }
    if (period.isNegative() || period.isZero() || period.compareTo(MAX_PERIOD) > 0) {
      throw new IllegalArgumentException(
          "policy '"
              + current.name()
              + "': a trial needs a period above 0 and at most 7 days, was "
              + period);
    }
    this.current = current;
    this.candidate =
        new Policy(current.name(), current.algorithm(), candidate, current.failureMode());
    this.clock = clock;
    this.period = period.toNanos();
    this.shadow = Limiter.of(InMemoryStore.builder().clock(clock).build()).bind(this.candidate);
    this.started = clock.nanos();
  }

  /** The policy's name. */
  public String policy() {
    return current.name();
  }

  /** The policy with its candidate limits: what applying the trial puts in force. */
  public Policy candidate() {
    return candidate;
  }

  /** The policy as it decided when the trial started. */
  public Policy current() {
    return current;
  }

  public State state() {
    return state.get();
  }

  /**
   * Decides one request in shadow, as the policy decided it for real: {@code key} and {@code cost}
   * as charged there, whether the policy rejected it, and whether every other policy of the request
   * admitted it (if not, the request is not charged, under all-or-nothing). False once the trial is
   * over (then nothing was counted).
   */
  boolean evaluate(String key, long cost, boolean rejectedHere, boolean othersAdmit) {
    PolicyLimiter limiter = shadow;
    if (limiter == null) {
      return false;
    }
    if (clock.nanos() - (started + period) >= 0) {
      end(State.ENDED);
      return false;
    }
    requests.increment();
    if (rejectedHere) {
      rejected.increment();
    }
    if (limiter.tryAcquire(key, cost) != 0) {
      wouldReject.increment();
      synchronized (wouldRejectKeys) {
        wouldRejectKeys.add(key, 1);
      }
    } else if (!othersAdmit) {
      limiter.refund(key, cost); // another policy rejected: all-or-nothing charges none
    }
    return true;
  }

  /** Ends the trial as {@code how}, if it is running; false if it was over already. */
  boolean end(State how) {
    if (!state.compareAndSet(State.RUNNING, how)) {
      return false;
    }
    endedAt = clock.nanos();
    shadow = null;
    return true;
  }

  /** Whether it still tries the candidate: running and within its period. */
  boolean running() {
    if (state.get() != State.RUNNING) {
      return false;
    }
    if (clock.nanos() - (started + period) >= 0) {
      end(State.ENDED);
      return false;
    }
    return true;
  }

  /** What the trial has shown so far. */
  public TrialView view() {
    running(); // ends it if its period passed
    State now = state.get();
    long at = now == State.RUNNING ? clock.nanos() : endedAt;
    long elapsed = Math.min(at - started, period);
    List<KeyCount> keys;
    synchronized (wouldRejectKeys) {
      keys = wouldRejectKeys.top(KEYS_SHOWN);
    }
    return new TrialView(
        current.name(),
        now,
        current.algorithm(),
        current.limits(),
        candidate.limits(),
        Duration.ofNanos(elapsed),
        Duration.ofNanos(now == State.RUNNING ? period - elapsed : 0),
        requests.sum(),
        rejected.sum(),
        wouldReject.sum(),
        keys);
  }
}
