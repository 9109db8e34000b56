package io.github.limiter.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;

/** A store under test and the reference, fed the same requests; every decision is compared. */
final class ContractFixture {
  final ManualClock clock;
  final RateLimitStore store;
  final ReferenceStore reference;
  final long tickNanos;
  final long start;

  /**
   * Every other step decides through the policy bound once, so both forms must agree with the
   * reference.
   */
  final Map<Policy, PolicyStore> bound = new IdentityHashMap<>();

  int steps;
  int rejections;

  ContractFixture(ManualClock clock, RateLimitStore store, long tickNanos) {
    this.clock = clock;
    this.store = store;
    this.reference = new ReferenceStore(clock, tickNanos);
    this.tickNanos = tickNanos;
    this.start = clock.nanos();
  }

  Decision decide(Policy policy, String key, long permits) {
    steps++;
    Decision expected = reference.decide(policy, key, permits);
    Decision actual =
        steps % 2 == 0
            ? bound.computeIfAbsent(policy, store::bind).decide(key, permits)
            : store.decide(policy, key, permits);
    assertThat(actual)
        .as(
            "step %d: %s key '%s' permits %d at +%d ns (%s)",
            steps, policy, key, permits, clock.nanos() - start, clock)
        .isEqualTo(expected);
    if (!actual.isAllowed()) {
      rejections++;
    }
    return actual;
  }

  void refund(Policy policy, String key, long permits) {
    adjust(policy, key, -permits);
  }

  void adjust(Policy policy, String key, long delta) {
    reference.adjust(policy, key, delta);
    if (steps % 2 == 0) {
      bound.computeIfAbsent(policy, store::bind).adjust(key, delta);
    } else {
      store.adjust(policy, key, delta);
    }
  }

  /**
   * Lines of {@code +<advance> <key> <permits>}; the advance is 0, {@code <n>t} ticks, or a
   * duration.
   */
  void runScript(Policy policy, String script) {
    for (String line : script.split("\n")) {
      String[] parts = line.trim().split(" ");
      String advance = parts[0].substring(1);
      if (advance.endsWith("t")) {
        clock.advance(Long.parseLong(advance.substring(0, advance.length() - 1)) * tickNanos);
      } else if (!advance.equals("0")) {
        clock.advance(Limit.parseDuration(advance));
      }
      decide(policy, parts[1], Long.parseLong(parts[2]));
    }
    assertThat(rejections).as("the script must reach rejections").isPositive();
  }

  void runRandomTrace(Policy policy, Random random, int length) {
    long tick = tickNanos;
    long interval = policy.limits().get(0).intervalNanos();
    long period = policy.limits().stream().mapToLong(Limit::periodNanos).max().orElseThrow();
    long capacity = policy.limits().stream().mapToLong(Limit::burst).min().orElseThrow();
    String[] keys = {"a", "b", "c"};
    for (int i = 0; i < length; i++) {
      int kind = random.nextInt(100);
      if (kind < 35) {
        // same instant
      } else if (kind < 45) {
        clock.advance(tick * (1 + random.nextInt(3)));
      } else if (kind < 90) {
        clock.advance(tick * (long) (random.nextDouble() * interval / tick));
      } else {
        clock.advance(tick * (long) (random.nextDouble() * 2 * period / tick));
      }
      String key = keys[random.nextInt(keys.length)];
      int settle = random.nextInt(100);
      if (settle < 5) {
        refund(policy, key, 1 + random.nextInt(2));
        continue;
      }
      if (settle < 8) {
        adjust(policy, key, 1 + random.nextInt((int) Math.min(3 * capacity, 1000)));
        continue;
      }
      long permits = random.nextInt(100) < 4 ? capacity + 1 : 1 + random.nextInt(3);
      decide(policy, key, permits);
    }
    assertThat(rejections).as("a trace must reach rejections").isPositive();
  }
}
