package io.github.limiter.internal.insight;

import io.github.limiter.NanoClock;
import io.github.limiter.internal.config.TopKeysSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator sees of live traffic, fed by the admission step once per policy of each request:
 * each policy's {@link Traffic} per second, the {@link TopKeys} (if enabled) and the {@link
 * ShadowTrials}; and what each policy limits ({@link PolicyScope}), as its adapters describe it.
 * With top keys off and no trial running, a request pays one compare-and-set per policy for it.
 */
public final class Insight {

  /** Null when top keys are off: nothing is counted. */
  private final TopKeys topKeys;

  private final ShadowTrials trials;
  private final Traffic traffic;
  private volatile Map<String, PolicyScope> scopes = Map.of();

  /** The insight of a runtime with {@code topKeys} settings, on {@code clock}. */
  public Insight(TopKeysSettings topKeys, NanoClock clock) {
    this.topKeys = topKeys.enabled() ? new TopKeys(topKeys, clock) : null;
    this.trials = new ShadowTrials(clock);
    this.traffic = new Traffic(clock);
  }

  /** Top keys off, on the system clock: for a runtime that shows no insight. */
  public static Insight off() {
    return new Insight(TopKeysSettings.DEFAULTS, NanoClock.system());
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
   * @param passed whether the request passed (so that a policy that decided it admitted it)
   */
  public void seen(
      String policy,
      String key,
      long cost,
      boolean decided,
      boolean rejectedHere,
      boolean othersAdmit,
      boolean passed) {
    if (passed ? decided : othersAdmit) {
      traffic.count(policy, !passed); // admitted, or rejected here
    }
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

  /** Each policy's admitted and rejected requests per second. */
  public Traffic traffic() {
    return traffic;
  }

  /**
   * Adds what each policy limits at an adapter's places, by name: the filter's routes, the
   * {@code @Limited} methods. A policy that two adapters apply has the places of both.
   */
  public synchronized Insight describe(Map<String, PolicyScope> scopes) {
    Map<String, PolicyScope> all = new HashMap<>(this.scopes);
    scopes.forEach((name, scope) -> all.merge(name, scope, PolicyScope::plus));
    this.scopes = Map.copyOf(all);
    return this;
  }

  /** What {@code policy} limits here, if this adapter applies it. */
  public Optional<PolicyScope> scope(String policy) {
    return Optional.ofNullable(scopes.get(policy));
  }
}
