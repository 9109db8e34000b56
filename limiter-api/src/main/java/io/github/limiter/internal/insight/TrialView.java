package io.github.limiter.internal.insight;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import java.time.Duration;
import java.util.List;

/**
 * A shadow trial at one moment, for the admin API.
 *
 * @param policy the policy's name
 * @param state running, ended (its period passed), applied or discarded
 * @param algorithm the policy's algorithm, which the candidate keeps
 * @param current the limits that decided, when the trial started
 * @param candidate the limits tried in shadow
 * @param elapsed how long it has run (or ran)
 * @param remaining how long it runs on; zero once over
 * @param requests the requests the candidate decided in shadow
 * @param rejected how many of them the current limits rejected
 * @param wouldReject how many of them the candidate would have rejected
 * @param wouldRejectKeys the keys the candidate would have rejected the most, the most first
 */
public record TrialView(
    String policy,
    ShadowTrial.State state,
    Algorithm algorithm,
    List<Limit> current,
    List<Limit> candidate,
    Duration elapsed,
    Duration remaining,
    long requests,
    long rejected,
    long wouldReject,
    List<KeyCount> wouldRejectKeys) {

  public TrialView {
    current = List.copyOf(current);
    candidate = List.copyOf(candidate);
    wouldRejectKeys = List.copyOf(wouldRejectKeys);
  }
}
