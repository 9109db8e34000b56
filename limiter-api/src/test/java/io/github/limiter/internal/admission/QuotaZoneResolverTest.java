package io.github.limiter.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.KeyResolver;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.RequestView;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A key whose quota zone and billing day come from resolvers: each customer's own calendar. */
class QuotaZoneResolverTest {

  static final String NOW = "2024-06-01T20:00:00Z";

  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  private final Limiter limiter =
      Limiter.of(
          InMemoryStore.builder()
              .clock(clock)
              .wallClock(Clock.fixed(Instant.parse(NOW), ZoneOffset.UTC))
              .build());

  @AfterEach
  void close() {
    limiter.close();
  }

  /** A resolver that answers a request's header {@code header}. */
  static KeyResolver header(String name, String header) {
    return new KeyResolver() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String resolve(RequestView request) {
        return request.header(header);
      }
    };
  }

  private PolicySet set(String... extra) {
    return set(limiter::bind, extra);
  }

  private PolicySet set(Function<Policy, PolicyLimiter> bind, String... extra) {
    Map<String, String> map =
        new java.util.HashMap<>(
            Map.of(
                "limiter.policy.api.algorithm", "token-bucket",
                "limiter.policy.api.limits", "100/s burst=200, 2/day",
                "limiter.policy.api.key", "header:X-Key",
                "limiter.policy.api.quota.time-zone", "resolver:customer-zone"));
    for (int i = 0; i < extra.length; i += 2) {
      map.put(extra[i], extra[i + 1]);
    }
    LimiterConfig config = LimiterConfig.from(ConfigLookup.of(map));
    Map<String, KeyResolver> resolvers =
        Map.of(
            "customer-zone", header("customer-zone", "X-Zone"),
            "billing-day", header("billing-day", "X-Billing-Day"));
    RuleCompiler compiler =
        new RuleCompiler(admission(config), (policy, setting, name) -> () -> resolvers.get(name));
    return PolicySet.of(List.of(compiler.compile(config.policy("api").orElseThrow())), bind);
  }

  private Admission admission;

  private Admission admission(LimiterConfig config) {
    admission =
        new Admission(
            new ClientAddress(config.http()),
            false,
            false,
            (request, outcome) -> {},
            AdmissionMetrics.OFF);
    return admission;
  }

  private Decision third(PolicySet set, AdmissionTest.View request) {
    admission.admit(set, request);
    admission.admit(set, request);
    return admission.admit(set, request).rejection();
  }

  private static AdmissionTest.View customer(String key, String zone, String billingDay) {
    Map<String, String> headers = new java.util.HashMap<>();
    headers.put("X-Key", key);
    if (zone != null) {
      headers.put("X-Zone", zone);
    }
    if (billingDay != null) {
      headers.put("X-Billing-Day", billingDay);
    }
    return new AdmissionTest.View("10.0.0.1", headers, Set.of());
  }

  @ParameterizedTest(name = "{0}: local midnight at {1}")
  @CsvSource({
    "Asia/Tokyo, 2024-06-01T15:00:00Z, 2024-06-02T15:00:00Z",
    "America/Los_Angeles, 2024-06-01T07:00:00Z, 2024-06-02T07:00:00Z",
    "Europe/Berlin, 2024-05-31T22:00:00Z, 2024-06-01T22:00:00Z",
  })
  void eachCustomersDayEndsAtTheirLocalMidnight(String zone, String start, String end) {
    // Given a daily quota of 2 whose zone a resolver answers per request
    PolicySet set = set();
    // When a customer in the zone uses it up at NOW
    Decision refused = third(set, customer("c-" + zone, zone, null));
    // Then the third waits until their local midnight, to the millisecond
    assertThat(refused).isNotNull();
    long untilMidnight = Duration.between(Instant.parse(NOW), Instant.parse(end)).toNanos();
    assertThat(refused.retryAfterNanos()).isEqualTo(untilMidnight);
    // 1 ms before it still refused, at it admitted
    clock.advance(untilMidnight - 1_000_000);
    assertThat(admission.admit(set, customer("c-" + zone, zone, null)).rejection()).isNotNull();
    clock.advance(1_000_000);
    assertThat(admission.admit(set, customer("c-" + zone, zone, null)).rejection()).isNull();
    assertThat(Instant.parse(start)).isBefore(Instant.parse(NOW));
  }

  @Test
  void aZoneTheResolverCannotNameFallsBackToUtc() {
    PolicySet set = set();
    Decision refused = third(set, customer("lost", "Mars/Olympus_Mons", null));
    assertThat(refused.retryAfter()).contains(Duration.ofHours(4));
    Decision none = third(set, customer("none", null, null));
    assertThat(none.retryAfter()).contains(Duration.ofHours(4));
  }

  @Test
  void aBillingDayFromAResolverStartsTheCustomersMonth() {
    // Given a monthly quota whose anchor day a resolver answers
    PolicySet set =
        set(
            "limiter.policy.api.limits", "100/s burst=200, 2/month",
            "limiter.policy.api.quota.time-zone", "UTC",
            "limiter.policy.api.quota.anchor-day", "resolver:billing-day");
    // Then a customer billed on the 2nd resets at June 2nd, one billed on the 1st at July 1st
    assertThat(third(set, customer("b2", null, "2")).retryAfter()).contains(Duration.ofHours(4));
    assertThat(third(set, customer("b1", null, "1")).retryAfter())
        .contains(Duration.between(Instant.parse(NOW), Instant.parse("2024-07-01T00:00:00Z")));
    // and one billed on the 31st resets at June 30th, June's last day
    assertThat(third(set, customer("b31", null, "31")).retryAfter())
        .contains(Duration.between(Instant.parse(NOW), Instant.parse("2024-06-30T00:00:00Z")));
  }

  @Test
  void beyondItsCalendarsAPolicyKeepsTheDeployedOneAndSaysSoOnce() {
    // Given a policy whose quota's zone comes from a resolver
    PolicySet set = set();
    List<String> warnings = new ArrayList<>();
    logged(
        warnings,
        () -> {
          // When customers fill every calendar the set keeps (a zone each, UTC+00:01 and up)
          for (int minutes = 1; minutes <= RequestCalendars.MAX_CALENDARS; minutes++) {
            String zone = ZoneOffset.ofTotalSeconds(minutes * 60).getId();
            admission.admit(set, customer("c" + minutes, zone, null));
          }
          assertThat(warnings).isEmpty();
          // Then a customer in one calendar more counts in the deployed one: their day ends at
          // midnight UTC, 4 hours after NOW, not at Tokyo's
          Decision refused = third(set, customer("one-more", "Asia/Tokyo", null));
          assertThat(refused.retryAfter()).contains(Duration.ofHours(4));
          third(set, customer("and-another", "Asia/Kolkata", null));
          // And the first such request is logged, once, naming the policy and the calendar
          assertThat(warnings)
              .singleElement(InstanceOfAssertFactories.STRING)
              .contains("Policy 'api'", "1000 calendars", "Asia/Tokyo from day 1", "resolver");
        });
  }

  @Test
  void aLiveChangeOfTheLimitsTakesNoOtherCalendar() {
    // Given a policy whose quota's zone comes from a resolver, bound through live limits
    LiveLimits live = new LiveLimits(limiter.store(), clock);
    PolicySet set = set(live.store()::limiter);
    List<String> warnings = new ArrayList<>();
    logged(
        warnings,
        () -> {
          // When a Tokyo customer calls under three versions of the limits
          for (int quota = 3; quota <= 5; quota++) {
            admission.admit(set, customer("tokyo", "Asia/Tokyo", null));
            live.policies().change("api", "100/s burst=200, " + quota + "/day");
          }
          // And customers fill every other calendar the set keeps
          for (int minutes = 1; minutes < RequestCalendars.MAX_CALENDARS; minutes++) {
            String zone = ZoneOffset.ofTotalSeconds(minutes * 60).getId();
            admission.admit(set, customer("c" + minutes, zone, null));
          }
        });
    // Then Tokyo took one calendar: none is full
    assertThat(warnings).isEmpty();
    // And the Tokyo customer, 3 used, gets 2 more of the 5 a day, until Tokyo's midnight
    assertThat(third(set, customer("tokyo", "Asia/Tokyo", null)).retryAfterNanos())
        .isEqualTo(
            Duration.between(Instant.parse(NOW), Instant.parse("2024-06-02T15:00:00Z")).toNanos());
  }

  /** Runs {@code body} with {@link PolicySet}'s log records' messages added to {@code into}. */
  private static void logged(List<String> into, Runnable body) {
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            into.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger log = Logger.getLogger(RequestCalendars.class.getName());
    log.addHandler(handler);
    try {
      body.run();
    } finally {
      log.removeHandler(handler);
    }
  }
}
