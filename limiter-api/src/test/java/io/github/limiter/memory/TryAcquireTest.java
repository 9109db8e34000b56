package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code tryAcquire} is {@code decide} without the Decision: same admissions, same retry times. */
class TryAcquireTest {

  static Stream<Policy> policies() {
    Limit limit = Limit.bucket(5, Duration.ofSeconds(1), 8);
    Limit window = Limit.of(5, Duration.ofSeconds(1));
    return Stream.of(
        Policy.tokenBucket("tb", limit),
        Policy.leakyBucket("lb", limit),
        Policy.fixedWindow("fw", window),
        Policy.slidingWindowCounter("sc", window),
        Policy.slidingWindowLog("sl", window),
        Policy.tokenBucket("multi", limit, Limit.bucket(20, Duration.ofMinutes(1), 20)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void decidesAsDecideDoes(Policy policy) {
    // Given two stores on clocks that move alike, from a hostile origin
    ManualClock a = ManualClock.at(ManualClock.NEAR_MAX);
    ManualClock b = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore byDecision = InMemoryStore.builder().clock(a).build();
    InMemoryStore byPrimitive = InMemoryStore.builder().clock(b).build();
    SplittableRandom random = new SplittableRandom(20261202);

    for (int i = 0; i < 5_000; i++) {
      // When the same request reaches both
      String key = "k" + random.nextInt(3);
      long permits = 1 + random.nextInt(random.nextInt(10) == 0 ? 12 : 2);
      Decision decision = byDecision.decide(policy, key, permits);
      long retry = byPrimitive.tryAcquire(policy, key, permits);

      // Then both admit, or both reject with the same retry time (never: Long.MAX_VALUE)
      long expected =
          decision.isAllowed()
              ? 0
              : decision.retryAfter().map(Duration::toNanos).orElse(Long.MAX_VALUE);
      assertThat(retry).as("request %s: %s", i, decision).isEqualTo(expected);
      long step = random.nextInt(4) == 0 ? 0 : random.nextLong(400_000_000L);
      a.advance(step);
      b.advance(step);
    }
  }
}
