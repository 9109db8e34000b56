package io.github.limiter.internal.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Policy;

/**
 * Drives a policy's pure function as a store would (fresh, retryAfter, then admit on a copy or
 * reject), and checks on every rejection that the state was left alone.
 */
final class PureDriver {

  final PolicyFunction function;
  long[] state;

  PureDriver(Policy policy, long firstSeen) {
    this.function = PolicyFunction.of(policy);
    this.state = function.fresh(firstSeen);
  }

  Decision decide(long now, long permits) {
    long retry = function.retryAfter(state, now, permits);
    if (retry == 0) {
      long[] next = state.clone();
      Decision admitted = function.admit(next, now, permits);
      state = next;
      return admitted;
    }
    long[] before = state.clone();
    Decision rejected = function.reject(state, now, permits, retry);
    assertThat(state).as("a rejection must not change the state").isEqualTo(before);
    return rejected;
  }

  Decision decide(long now) {
    return decide(now, 1);
  }

  /**
   * Decides {@code count} one-permit requests at {@code now} and returns how many were admitted.
   */
  int admitted(long now, int count) {
    int admitted = 0;
    for (int i = 0; i < count; i++) {
      if (decide(now).isAllowed()) {
        admitted++;
      }
    }
    return admitted;
  }
}
