package io.github.limiter.internal.live;

import io.github.limiter.NanoClock;
import io.github.limiter.internal.config.TopKeysSettings;
import java.util.Optional;

/**
 * What an operator sees of live traffic, fed by the admission step once per policy of each request:
 * the {@link TopKeys} (if enabled) and the {@link ShadowTrials}. With top keys off and no trial
 * running, a request pays a field read and a volatile read for it.
 */
public final class Insight {

  /** Null when top keys are off: nothing is counted. */
  private final TopKeys topKeys;

  private final ShadowTrials trials;

  /** The insight of a runtime with {@code topKeys} settings, on {@code clock}. */
  public Insight(TopKeysSettings topKeys, NanoClock clock) {
    this.topKeys = topKeys.enabled() ? new TopKeys(topKeys, clock) : null;
    this.trials = new ShadowTrials(clock);
  }

  /** Top keys off, on the system clock: for a runtime that shows no insight. */
  public static Insight off() {
    return new Insight(TopKeysSettings.DEFAULTS, NanoClock.system());
  }

  /** Whether a request has anything to report: what the admission step checks first. */
  public boolean on() {
    return topKeys != null || trials.any();
  }

  /**
   * One policy's part of one request.
   *
   * @param policy the name of the policy that applied (a plan's policy for a request with a plan)
   * @param key the request's key there
   * @param cost what the request cost there, or would have
   * @param decided whether the policy decided it (not when an earlier policy or a missing key
   *     rejected it first); the top keys count a request the policy decided or rejected
   * @param rejectedHere whether this policy rejected it (a dry-run policy's would-be rejection too)
   * @param othersAdmit whether every other policy of the request admitted it
   */
  public void seen(
      String policy,
      String key,
      long cost,
      boolean decided,
      boolean rejectedHere,
      boolean othersAdmit) {
    if (topKeys != null && (decided || rejectedHere)) {
      topKeys.count(policy, key, rejectedHere);
    }
    if (decided && trials.any()) {
      trials.evaluate(policy, key, cost, rejectedHere, othersAdmit);
    }
  }

  /** The top keys, if enabled. */
  public Optional<TopKeys> topKeys() {
    return Optional.ofNullable(topKeys);
  }

  public ShadowTrials trials() {
    return trials;
  }
}
