package io.github.limiter.internal.insight;

import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shadow trials of one runtime: at most one per policy, the latest kept (running or over) until
 * the next one of its policy starts or it is discarded. Without a running trial, a request pays one
 * volatile read for them.
 */
public final class ShadowTrials {

  private final NanoClock clock;

  /** The latest trial of each policy, by name; guarded by this. */
  private final Map<String, ShadowTrial> latest = new TreeMap<>();

  /** The running trials, as requests read them: replaced whole when one starts or ends. */
  private volatile ShadowTrial[] running = new ShadowTrial[0];

  public ShadowTrials(NanoClock clock) {
    this.clock = clock;
  }

  /** Whether some trial may be running: what a request checks first. */
  boolean any() {
    return running.length > 0;
  }

  /**
   * Starts trying {@code candidate} limits for {@code current} (the policy as it decides now) for
   * {@code period}.
   *
   * @throws IllegalArgumentException naming what is wrong with the candidate or the period
   * @throws IllegalStateException if a trial of the policy is running: apply or discard it first
   */
  public synchronized ShadowTrial start(Policy current, List<Limit> candidate, Duration period) {
    ShadowTrial old = latest.get(current.name());
    if (old != null && old.running()) {
      throw new IllegalStateException(
          "policy '"
              + current.name()
              + "': a shadow trial of "
              + old.candidate().limits()
              + " is running; apply or discard it first");
    }
    ShadowTrial trial = new ShadowTrial(current, candidate, period, clock);
    latest.put(current.name(), trial);
    refresh();
    return trial;
  }

  /** The latest trial of {@code policy}, running or over. */
  public synchronized Optional<ShadowTrial> trial(String policy) {
    return Optional.ofNullable(latest.get(policy));
  }

  /** What every latest trial has shown, by policy name. */
  public synchronized List<TrialView> views() {
    List<TrialView> views = new ArrayList<>();
    latest.values().forEach(trial -> views.add(trial.view()));
    refresh();
    return views;
  }

  /**
   * Ends {@code policy}'s running trial as applied and answers its candidate: the policy to put in
   * force (the run-time change does that). Empty if none is running.
   */
  public synchronized Optional<Policy> apply(String policy) {
    ShadowTrial trial = latest.get(policy);
    if (trial == null || !trial.running() || !trial.end(ShadowTrial.State.APPLIED)) {
      refresh();
      return Optional.empty();
    }
    refresh();
    return Optional.of(trial.candidate());
  }

  /** Discards {@code policy}'s latest trial, running or over; false if it had none. */
  public synchronized boolean discard(String policy) {
    ShadowTrial trial = latest.remove(policy);
    if (trial == null) {
      return false;
    }
    trial.end(ShadowTrial.State.DISCARDED);
    refresh();
    return true;
  }

  /**
   * Decides one request of {@code policy} in its running trial, if any (see {@link
   * ShadowTrial#evaluate}).
   */
  void evaluate(String policy, String key, long cost, boolean rejectedHere, boolean othersAdmit) {
    for (ShadowTrial trial : running) {
      if (trial.policy().equals(policy) && !trial.evaluate(key, cost, rejectedHere, othersAdmit)) {
        ended();
      }
    }
  }

  private synchronized void ended() {
    refresh();
  }

  /** Rebuilds {@link #running} from the trials that still run. */
  private void refresh() {
    List<ShadowTrial> now = new ArrayList<>();
    for (ShadowTrial trial : latest.values()) {
      if (trial.running()) {
        now.add(trial);
      }
    }
    running = now.toArray(new ShadowTrial[0]);
  }
}
