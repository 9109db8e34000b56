package io.github.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Decision.Outcome;
import io.github.limiter.memory.InMemoryStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LimiterTest {

  final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  final Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());

  @Test
  void aRequestCostsAtLeastOnePermit() {
    Policy api = Policy.tokenBucket("api", Limit.of(10, Duration.ofSeconds(1)));

    assertThatThrownBy(() -> limiter.decide(api, "k", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("permits")
        .hasMessageContaining("0");
  }

  @Test
  void severalPoliciesAreAllOrNothingAndTheRejectingOneIsReported() {
    // Given a roomy per-second policy and a per-hour one with 2 left
    Policy perSecond = Policy.tokenBucket("second", Limit.of(10, Duration.ofSeconds(1)));
    Policy perHour = Policy.fixedWindow("hour", Limit.of(2, Duration.ofHours(1)));
    List<Policy> both = List.of(perSecond, perHour);
    assertThat(limiter.decideAll(both, p -> "k", 1).isAllowed()).isTrue();
    Decision second = limiter.decideAll(both, p -> "k", 1);

    // When a third request comes
    Decision third = limiter.decideAll(both, p -> "k", 1);

    // Then the hour rejects it, and the per-second permit charged before it is given back
    assertThat(second.isAllowed()).isTrue();
    assertThat(second.policy()).isEqualTo("hour");
    assertThat(second.remaining()).isZero();
    assertThat(third.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(third.policy()).isEqualTo("hour");
    assertThat(limiter.decide(perSecond, "k", 1).remaining()).isEqualTo(7);
  }

  @Test
  void longKeysAreReplacedByADigestAndShortOnesKept() {
    String longKey = "x".repeat(500);

    assertThat(Limiter.boundedKey("client-1")).isEqualTo("client-1");
    assertThat(Limiter.boundedKey(null)).isEmpty();
    assertThat(Limiter.boundedKey(longKey)).startsWith("sha256:").hasSizeLessThanOrEqualTo(Limiter.MAX_KEY_LENGTH)
        .isEqualTo(Limiter.boundedKey(longKey))
        .isNotEqualTo(Limiter.boundedKey(longKey + "y"));
  }

  @Test
  void theLimiterDecidesWithItsStore() {
    Policy one = Policy.fixedWindow("one", Limit.of(1, Duration.ofMinutes(1)));

    assertThat(limiter.decide(one, "k").isAllowed()).isTrue();
    assertThat(limiter.decide(one, "k").isAllowed()).isFalse();
    assertThat(limiter.store()).isInstanceOf(InMemoryStore.class);
  }
}
