package io.github.limiter.internal.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.PolicyStore;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveLimitsTest {

  final ManualClock clock = ManualClock.random(31);
  final InMemoryStore store = InMemoryStore.builder().clock(clock).build();
  final LiveLimits live = new LiveLimits(store);
  final Policy api = Policy.tokenBucket("api", Limit.bucket(1, Duration.ofSeconds(1), 10));

  @Test
  void aBoundPolicyDecidesUnderItsCurrentVersionAndKeysKeepTheirState() {
    // Given an adapter's handle, bound through the live limits, and a key that used 6 of 10
    PolicyLimiter bound = Limiter.of(live.store()).bind(api);
    for (int i = 0; i < 6; i++) {
      assertThat(bound.decide("k").isAllowed()).isTrue();
    }

    // When the burst is lowered to 5, and later raised to 20
    PolicyVersion v1 = live.policies().change("api", "1/s burst=5");

    // Then the same handle decides under it: 4 left, capped at 5, no fresh burst
    assertThat(v1.number()).isEqualTo(1);
    assertThat(bound.policy().limits()).containsExactly(Limit.bucket(1, Duration.ofSeconds(1), 5));
    assertThat(bound.decide("k").remaining()).isEqualTo(3);
    live.policies().change("api", "1/s burst=20");
    assertThat(bound.decide("k").remaining()).isEqualTo(2);
    assertThat(live.policies().version("api").orElseThrow().number()).isEqualTo(2);
  }

  @Test
  void everyBindOfANameIsTheSameLivePolicy() {
    PolicyStore first = live.store().bind(api);
    PolicyStore second =
        live.store().bind(Policy.tokenBucket("api", Limit.bucket(9, Duration.ofSeconds(1), 9)));

    assertThat(second).isSameAs(first);
    assertThat(live.policies().versions()).containsExactly(new PolicyVersion(0, api));
  }

  @Test
  void aBadLimitIsRefusedWithTheParsersMessageAndNothingChanges() {
    live.store().bind(api);

    assertThatThrownBy(() -> live.policies().change("api", "10 per sec"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("10 per sec");
    assertThatThrownBy(() -> live.policies().change("api", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected one or more limits");
    assertThat(live.policies().versions()).containsExactly(new PolicyVersion(0, api));
  }

  @Test
  void aChangeKeepsTheAlgorithmsRules() {
    live.store().bind(Policy.fixedWindow("login", Limit.of(5, Duration.ofMinutes(1))));

    assertThatThrownBy(() -> live.policies().change("login", "5/m burst=10"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("burst and initial apply to token-bucket and leaky-bucket only");
    assertThat(live.policies().version("login").orElseThrow().number()).isZero();
  }

  @Test
  void anUnknownPolicyIsNamed() {
    live.store().bind(api);

    assertThatThrownBy(() -> live.policies().change("nope", "1/s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no policy named 'nope'")
        .hasMessageContaining("[api]");
  }

  @Test
  void limitsAreWrittenAsConfigurationReadsThem() {
    Policy policy =
        new Policy(
            "p",
            Algorithm.TOKEN_BUCKET,
            List.of(
                Limit.bucket(10, Duration.ofSeconds(1), 20).withInitial(0),
                Limit.of(1000, Duration.ofHours(1)),
                Limit.of(7, Duration.ofMillis(1500))),
            io.github.limiter.FailureMode.LOCAL);

    assertThat(Limit.parseAll(PolicyVersion.text(policy))).isEqualTo(policy.limits());
  }

  @Test
  void aChangeOfAStoreThatCannotCarryStateIsRefused() {
    LiveLimits overOtherStore = new LiveLimits(new NamedOnlyStore(store));
    overOtherStore.store().bind(api);

    assertThatThrownBy(() -> overOtherStore.policies().change("api", "1/s burst=5"))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("cannot change a policy's limits while it runs");
    assertThat(overOtherStore.policies().version("api").orElseThrow().number()).isZero();
  }

  /** A store with the SPI's defaults only, as a third party's store may be. */
  record NamedOnlyStore(InMemoryStore inner) implements io.github.limiter.RateLimitStore {
    @Override
    public io.github.limiter.Decision decide(Policy policy, String key, long permits) {
      return inner.decide(policy, key, permits);
    }

    @Override
    public void adjust(Policy policy, String key, long delta) {
      inner.adjust(policy, key, delta);
    }

    @Override
    public TimeSource timeSource() {
      return inner.timeSource();
    }
  }
}
