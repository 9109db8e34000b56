package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.limiter.KeyResolver;
import io.github.limiter.RateLimitStore;
import io.github.limiter.RequestView;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.interceptor.InvocationContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A daily quota whose time zone a resolver answers per call, under {@code @Limited}: each
 * customer's day ends at their local midnight, to the millisecond, also after a live change.
 */
class QuotaZoneLimitedTest {

  /** Noon UTC: Tokyo's midnight (UTC+9) comes in 3 hours, UTC's in 12. */
  static final Instant NOON = Instant.parse("2024-06-01T12:00:00Z");

  static final long MS = 1_000_000L;
  static final long UNTIL_TOKYO_MIDNIGHT = Duration.ofHours(3).toNanos();

  static final ManualClock CLOCK = ManualClock.at(ManualClock.NEAR_MAX);

  @AfterEach
  void release() {
    TestConfig.clear();
  }

  private static WeldContainer container() {
    TestConfig.use(
        TestConfig.of(
            "limiter.policy.daily.algorithm", "token-bucket",
            "limiter.policy.daily.limits", "100/s burst=200, 2/day",
            "limiter.policy.daily.quota.time-zone", "resolver:customer-zone"));
    return new Weld()
        .disableDiscovery()
        .addBuildCompatibleExtensions(LimitedBuildExtension.class)
        .beanClasses(NoonStore.class, CustomerZone.class, Api.class)
        .initialize();
  }

  /** The call of {@code customer} in {@code zone} (null: none answered, so UTC). */
  private static RateLimitExceededException call(Api api, String customer, String zone) {
    return catchThrowableOfType(RateLimitExceededException.class, () -> api.call(customer, zone));
  }

  @Test
  void aTokyoCustomersDayEndsAtTokyoMidnightWhileAUtcCustomerWaits() {
    try (WeldContainer container = container()) {
      Api api = container.select(Api.class).get();
      // Given both customers used their 2 calls of the day
      for (int i = 0; i < 2; i++) {
        assertThat(call(api, "tokyo", "Asia/Tokyo")).isNull();
        assertThat(call(api, "utc", null)).isNull();
      }
      assertThat(call(api, "tokyo", "Asia/Tokyo").decision().retryAfterNanos())
          .isEqualTo(UNTIL_TOKYO_MIDNIGHT);
      assertThat(call(api, "utc", null).retryAfter()).contains(Duration.ofHours(12));

      // When the clock reaches 1 ms before Tokyo's midnight, Then Tokyo is still refused
      CLOCK.advance(UNTIL_TOKYO_MIDNIGHT - MS);
      assertThat(call(api, "tokyo", "Asia/Tokyo")).isNotNull();

      // And at Tokyo's midnight Tokyo is admitted, while UTC's day goes on
      CLOCK.advance(MS);
      assertThat(call(api, "tokyo", "Asia/Tokyo")).isNull();
      assertThat(call(api, "utc", null)).isNotNull();
    }
  }

  @Test
  void aLiveChangeReachesTheTokyoCustomerInTokyosCalendar() {
    try (WeldContainer container = container()) {
      Api api = container.select(Api.class).get();
      // Given the Tokyo customer used 2 of the day's 2 calls
      assertThat(call(api, "tokyo-2", "Asia/Tokyo")).isNull();
      assertThat(call(api, "tokyo-2", "Asia/Tokyo")).isNull();
      assertThat(call(api, "tokyo-2", "Asia/Tokyo")).isNotNull();

      // When an operator raises the quota to 3 a day
      container
          .select(LimiterRuntime.class)
          .get()
          .live()
          .policies()
          .change("daily", "100/s burst=200, 3/day");

      // Then the Tokyo customer gets a third call and no fourth, until Tokyo's midnight
      assertThat(call(api, "tokyo-2", "Asia/Tokyo")).isNull();
      RateLimitExceededException fourth = call(api, "tokyo-2", "Asia/Tokyo");
      assertThat(fourth.decision().limit().permits()).isEqualTo(3);
      assertThat(fourth.decision().retryAfterNanos()).isEqualTo(UNTIL_TOKYO_MIDNIGHT);
      CLOCK.advance(UNTIL_TOKYO_MIDNIGHT - MS);
      assertThat(call(api, "tokyo-2", "Asia/Tokyo")).isNotNull();
      CLOCK.advance(MS);
      for (int i = 0; i < 3; i++) {
        assertThat(call(api, "tokyo-2", "Asia/Tokyo")).isNull();
      }
      assertThat(call(api, "tokyo-2", "Asia/Tokyo")).isNotNull();
    }
  }

  /** An in-memory store on {@link #CLOCK} whose wall clock reads {@link #NOON} when built. */
  @Alternative
  @Priority(100)
  static class NoonStore {
    @Produces
    @ApplicationScoped
    @Typed(RateLimitStore.class)
    RateLimitStore store() {
      return InMemoryStore.builder()
          .clock(CLOCK)
          .wallClock(Clock.fixed(NOON, ZoneOffset.UTC))
          .build();
    }

    void close(@Disposes RateLimitStore store) {
      store.close();
    }
  }

  /** The customer's time zone: the call's second argument. */
  @ApplicationScoped
  static class CustomerZone implements KeyResolver {
    @Override
    public String name() {
      return "customer-zone";
    }

    @Override
    public String resolve(RequestView call) {
      return (String) call.unwrap(InvocationContext.class).getParameters()[1];
    }
  }

  @ApplicationScoped
  static class Api {
    @Limited(value = "daily", key = "param:0")
    public void call(String customer, String zone) {}
  }
}
