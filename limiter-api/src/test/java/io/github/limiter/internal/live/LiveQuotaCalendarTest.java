package io.github.limiter.internal.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.QuotaCalendar;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A quota added live to a policy that had none counts in the policy's configured {@code
 * quota.time-zone} and {@code quota.anchor-day}, not in UTC from the 1st.
 */
class LiveQuotaCalendarTest {

  /** Noon UTC: Tokyo's midnight comes in 3 hours. */
  static final Instant NOON = Instant.parse("2024-06-01T12:00:00Z");

  static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
  static final long MS = 1_000_000L;

  final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  final InMemoryStore store =
      InMemoryStore.builder().clock(clock).wallClock(Clock.fixed(NOON, ZoneOffset.UTC)).build();
  final LiveLimits live = new LiveLimits(store, clock);

  /** A policy {@code daily} of 100/s with no quota, and {@code settings} about its calendar. */
  private LimiterConfig config(String... settings) {
    Map<String, String> map = new HashMap<>();
    map.put("limiter.policy.daily.algorithm", "token-bucket");
    map.put("limiter.policy.daily.limits", "100/s burst=200");
    map.put("limiter.policy.daily.plan.pro.limits", "1000/s burst=2000");
    map.put("limiter.policy.daily.plan-source", "header:X-Plan");
    for (int i = 0; i < settings.length; i += 2) {
      map.put("limiter.policy.daily." + settings[i], settings[i + 1]);
    }
    return LimiterConfig.from(ConfigLookup.of(map));
  }

  /** The live limits of {@code config}, its policy and its plan's bound. */
  private PolicyLimiter bound(LimiterConfig config) {
    live.inCalendarsOf(config);
    var policy = config.policy("daily").orElseThrow();
    live.store().limiter(policy.plans().byName().get("pro"));
    return live.store().limiter(policy.policy());
  }

  @Test
  void aDailyQuotaAddedLiveEndsAtMidnightInTheConfiguredZone() {
    // Given a policy without quota, configured in Tokyo
    PolicyLimiter daily = bound(config("quota.time-zone", "Asia/Tokyo"));

    // When an operator adds a quota of 2 a day
    live.policies().change("daily", "100/s burst=200, 2/day");

    // Then it is in Tokyo: a key that used it waits until Tokyo's midnight, 3 hours, to the ms
    assertThat(daily.policy().limits())
        .containsExactly(
            Limit.bucket(100, Duration.ofSeconds(1), 200),
            Limit.parse("2/day").inCalendar(TOKYO, 1));
    daily.decide("k");
    daily.decide("k");
    Decision refused = daily.decide("k");
    assertThat(refused.retryAfterNanos()).isEqualTo(Duration.ofHours(3).toNanos());
    clock.advance(Duration.ofHours(3).toNanos() - MS);
    assertThat(daily.decide("k").isAllowed()).isFalse();
    clock.advance(MS);
    assertThat(daily.decide("k").isAllowed()).isTrue();
  }

  @Test
  void aMonthlyQuotaAddedLiveStartsOnTheConfiguredAnchorDay() {
    // Given a policy without quota whose months start on the 15th
    PolicyLimiter daily = bound(config("quota.anchor-day", "15"));

    // When an operator adds a quota of 1 a month
    live.policies().change("daily", "100/s burst=200, 1/month");

    // Then a key that used it waits until June 15th, not July 1st
    assertThat(daily.decide("k").isAllowed()).isTrue();
    assertThat(daily.decide("k").retryAfterNanos())
        .isEqualTo(Duration.between(NOON, Instant.parse("2024-06-15T00:00:00Z")).toNanos());
  }

  @Test
  void aQuotaAddedLiveToAPlanIsInThePolicysCalendar() {
    bound(config("quota.time-zone", "Asia/Tokyo", "quota.anchor-day", "20"));

    live.policies().change("daily.plan.pro", "1000/s burst=2000, 5/week");

    assertThat(live.policies().version("daily.plan.pro").orElseThrow().policy().limits())
        .contains(Limit.parse("5/week").inCalendar(TOKYO, 20));
  }

  @Test
  void underAZoneResolverTheQuotaIsAddedInItsFallbackAndATokyoRequestCountsInTokyo() {
    // Given a policy without quota whose zone a resolver answers (UTC when it answers none)
    bound(config("quota.time-zone", "resolver:customer-zone"));

    // When an operator adds a quota of 2 a day
    live.policies().change("daily", "100/s burst=200, 2/day");

    // Then it is in UTC, and the version a Tokyo request binds counts until Tokyo's midnight
    assertThat(live.policies().version("daily").orElseThrow().policy().limits())
        .contains(Limit.parse("2/day").inCalendar(ZoneOffset.UTC, 1));
    PolicyLimiter tokyo =
        live.store()
            .limiter(
                QuotaCalendar.inCalendar(
                    live.policies().version("daily").orElseThrow().policy(), TOKYO, 1));
    tokyo.decide("t");
    tokyo.decide("t");
    assertThat(tokyo.decide("t").retryAfterNanos()).isEqualTo(Duration.ofHours(3).toNanos());
  }
}
