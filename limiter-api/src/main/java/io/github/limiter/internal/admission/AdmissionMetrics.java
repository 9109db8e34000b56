package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.internal.log.RateLimitedLog;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.store.InMemoryStoreFactory;
import java.time.Duration;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reports what the {@link Admission} step decided to a metrics {@link Recorder}: each policy's
 * decision, near-limit admissions, the shaping wait and the store's decision time. Built once at
 * start-up; {@link #OFF} when metrics are off or no backend is present, and then the step does not
 * even read the clock.
 *
 * <p>The in-memory store is not timed: its decision is a compare-and-set on the request thread,
 * shorter than the two clock reads and the histogram update that timing it would add to every
 * request (overhead.sh measured them as most of what metrics cost an admitted request). The
 * request's own latency shows it. Stores that leave the JVM (Redis) are timed.
 */
public final class AdmissionMetrics {

  public static final AdmissionMetrics OFF =
      new AdmissionMetrics(Recorder.NOOP, "none", new NearLimit(0));

  private final Recorder recorder;
  private final String store;
  private final NearLimit nearLimit;
  private final boolean timesStore;
  private final RateLimitedLog failures =
      new RateLimitedLog(
          Logger.getLogger(AdmissionMetrics.class.getName()),
          AdmissionMetrics.class,
          Duration.ofMinutes(1));

  private AdmissionMetrics(Recorder recorder, String store, NearLimit nearLimit) {
    this.recorder = recorder;
    this.store = store;
    this.nearLimit = nearLimit;
    this.timesStore = recorder != Recorder.NOOP && !InMemoryStoreFactory.NAME.equals(store);
  }

  /**
   * The metrics of a step deciding on {@code store} (the {@code store} tag), or {@link #OFF} for
   * {@link Recorder#NOOP}.
   */
  public static AdmissionMetrics of(Recorder recorder, String store, NearLimit nearLimit) {
    return recorder == Recorder.NOOP
        ? OFF
        : new AdmissionMetrics(
            recorder,
            Objects.requireNonNull(store, "store"),
            Objects.requireNonNull(nearLimit, "nearLimit"));
  }

  boolean on() {
    return this != OFF;
  }

  /** Whether the step times the store's decision: metrics on, and a store outside the JVM. */
  boolean timesStore() {
    return timesStore;
  }

  /**
   * Records {@code outcome}, whose store decisions took {@code storeNanos} (negative: the store was
   * not asked, as when a missing key rejected first). A backend that fails (a registry of another
   * library version than the one compiled against, say) costs the request nothing but a log line:
   * recorders watch, they never decide.
   */
  void record(RequestFrame outcome, long storeNanos) {
    try {
      recordEach(outcome, storeNanos);
    } catch (RuntimeException | LinkageError e) {
      failures.log(
          Level.WARNING, "record", "Limiter could not record a decision on " + recorder + ": " + e);
    }
  }

  private void recordEach(RequestFrame outcome, long storeNanos) {
    if (storeNanos >= 0) {
      recorder.storeDuration(store, storeNanos);
    }
    int shapedBy = -1;
    long longestWait = 0;
    for (int i = 0; i < outcome.size(); i++) {
      Rule rule = outcome.rule(i);
      Decision dryRun = outcome.dryRunRejection(i);
      Decision decision = outcome.decision(i);
      if (dryRun != null) {
        recorder.decision(rule.name(), Recorder.Verdict.DRY_RUN_REJECTED, dryRun.isVerified());
      } else if (i == outcome.rejectedAt()) {
        Decision rejection = outcome.rejection();
        recorder.decision(
            rule.name(),
            rejection.outcome() == Decision.Outcome.UNAVAILABLE
                ? Recorder.Verdict.UNAVAILABLE
                : Recorder.Verdict.REJECTED,
            rejection.isVerified());
      } else if (decision != null && decision.isAllowed()) {
        // Under all-or-nothing, a policy refunded because another rejected still admitted: the
        // counter says what each policy decided.
        recorder.decision(rule.name(), Recorder.Verdict.ADMITTED, decision.isVerified());
        if (outcome.allowed()) {
          if (nearLimit.test(outcome.policy(i), decision)) {
            recorder.nearLimit(rule.name());
          }
          long wait = rule.waitNanos(decision, outcome.cost(i));
          if (wait > longestWait) {
            longestWait = wait;
            shapedBy = i;
          }
        }
      }
      // else: skipped (on-missing-key=allow, charged by an outer adapter) or not decided: nothing
    }
    if (shapedBy >= 0) {
      recorder.shapingDelay(outcome.rule(shapedBy).name(), longestWait);
    }
  }
}
