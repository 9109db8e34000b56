package io.github.limiter.internal.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.PolicyStore;
import io.github.limiter.internal.config.QuotaCalendar;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * A live policy bound in the calendar of a request's quota zone: the live versions decide there,
 * re-zoned, keys keep their state across versions, and the live overrides apply.
 */
class LiveCalendarTest {

  /** Noon UTC: Tokyo's midnight comes in 3 hours, UTC's in 12. */
  static final Instant NOON = Instant.parse("2024-06-01T12:00:00Z");

  static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
  static final long UNTIL_TOKYO_MIDNIGHT = Duration.ofHours(3).toNanos();

  final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  final InMemoryStore store =
      InMemoryStore.builder().clock(clock).wallClock(Clock.fixed(NOON, ZoneOffset.UTC)).build();
  final LiveLimits live = new LiveLimits(store, clock);
  final Policy daily =
      Policy.tokenBucket(
          "daily", Limit.bucket(100, Duration.ofSeconds(1), 200), Limit.parse("2/day"));

  /** The handle a request in Tokyo gets: the live policy's current version there, bound. */
  private PolicyLimiter tokyo() {
    return live.store()
        .limiter(
            QuotaCalendar.inCalendar(
                live.policies().version("daily").orElseThrow().policy(), TOKYO, 1));
  }

  private static Decision third(PolicyLimiter bound, String key) {
    bound.decide(key);
    bound.decide(key);
    return bound.decide(key);
  }

  @Test
  void theDeployedPolicyIsTheLiveOneAndAnotherCalendarIsAViewOfIt() {
    // Given the deployed policy, bound
    PolicyStore deployed = live.store().bind(daily);
    // Then it binds again to the same handle, and in Tokyo to a handle of its own, once
    assertThat(live.store().bind(daily)).isSameAs(deployed);
    PolicyStore inTokyo = live.store().bind(QuotaCalendar.inCalendar(daily, TOKYO, 1));
    assertThat(inTokyo).isNotSameAs(deployed);
    assertThat(inTokyo.policy().limits().get(1).zone()).isEqualTo(TOKYO);
    // And a bind of the Tokyo version of an older version (read before a change) is the same
    live.policies().change("daily", "100/s burst=200, 3/day");
    assertThat(live.store().bind(QuotaCalendar.inCalendar(daily, TOKYO, 1))).isSameAs(inTokyo);
    assertThat(live.store().bind(QuotaCalendar.inCalendar(daily, TOKYO, 15))).isNotSameAs(inTokyo);
    assertThat(live.policies().versions()).hasSize(1);
  }

  @Test
  void theTokyoVersionFollowsALiveChangeAndTheKeyKeepsItsCount() {
    live.store().bind(daily);
    PolicyLimiter tokyo = tokyo();
    // Given a Tokyo key that used its 2 of the day
    Decision refused = third(tokyo, "t");
    assertThat(refused.retryAfterNanos()).isEqualTo(UNTIL_TOKYO_MIDNIGHT);

    // When the quota is raised to 3
    live.policies().change("daily", "100/s burst=200, 3/day");

    // Then the same handle decides under 3 a day in Tokyo: one more, until Tokyo's midnight
    assertThat(tokyo.policy().limits())
        .containsExactly(
            Limit.bucket(100, Duration.ofSeconds(1), 200),
            Limit.parse("3/day").inCalendar(TOKYO, 1));
    assertThat(tokyo.decide("t").isAllowed()).isTrue();
    Decision fourth = tokyo.decide("t");
    assertThat(fourth.isAllowed()).isFalse();
    assertThat(fourth.retryAfterNanos()).isEqualTo(UNTIL_TOKYO_MIDNIGHT);
    clock.advance(UNTIL_TOKYO_MIDNIGHT - 1_000_000);
    assertThat(tokyo.decide("t").isAllowed()).isFalse();
    clock.advance(1_000_000);
    assertThat(tokyo.decide("t").isAllowed()).isTrue();
  }

  @Test
  void aKeysOverrideAppliesInEveryZone() {
    live.store().bind(daily);
    PolicyLimiter tokyo = tokyo();
    // When an operator blocks key "t" for an hour and exempts key "e"
    live.overrides().set("daily", "t", KeyOverride.Kind.BLOCK, null, Duration.ofHours(1));
    live.overrides().set("daily", "e", KeyOverride.Kind.EXEMPT, null, null);

    // Then in Tokyo "t" is refused until the block ends, and "e" is never counted
    Decision blocked = tokyo.decide("t");
    assertThat(blocked.isAllowed()).isFalse();
    assertThat(blocked.retryAfterNanos()).isEqualTo(Duration.ofHours(1).toNanos());
    for (int i = 0; i < 5; i++) {
      assertThat(tokyo.decide("e").isAllowed()).isTrue();
    }
    // And once the block ends, "t" counts its own quota in Tokyo
    clock.advance(Duration.ofHours(1).toNanos());
    live.overrides().remove("daily", "e");
    assertThat(third(tokyo, "t").retryAfterNanos())
        .isEqualTo(UNTIL_TOKYO_MIDNIGHT - Duration.ofHours(1).toNanos());
    assertThat(third(tokyo, "e").retryAfterNanos())
        .isEqualTo(UNTIL_TOKYO_MIDNIGHT - Duration.ofHours(1).toNanos());
  }

  @Test
  void anAdaptersLimiterIsOnePerPolicyValue() {
    PolicyLimiter deployed = live.store().limiter(daily);
    assertThat(live.store().limiter(daily)).isSameAs(deployed);
    assertThat(
            live.store()
                .limiter(
                    new Policy(
                        daily.name(), daily.algorithm(), daily.limits(), daily.failureMode())))
        .isSameAs(deployed);
    assertThat(tokyo()).isSameAs(tokyo()).isNotSameAs(deployed);
  }
}
