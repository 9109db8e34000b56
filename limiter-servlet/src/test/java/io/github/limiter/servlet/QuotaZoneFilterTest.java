package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A daily quota whose time zone a resolver answers per request, under the filter: each customer's
 * day ends at their local midnight, to the millisecond, also after a live change of the limits.
 */
class QuotaZoneFilterTest {

  /** Noon UTC: Tokyo's midnight (UTC+9) comes in 3 hours, UTC's in 12. */
  static final Instant NOON = Instant.parse("2024-06-01T12:00:00Z");

  static final Duration UNTIL_TOKYO_MIDNIGHT = Duration.ofHours(3);
  static final Duration MS = Duration.ofMillis(1);

  static final Map<String, String> DAILY =
      Props.of(
          "limiter.policy.daily.algorithm", "token-bucket",
          "limiter.policy.daily.limits", "100/s burst=200, 2/day",
          "limiter.policy.daily.key", "header:X-Api-Key",
          "limiter.policy.daily.quota.time-zone", "resolver:customer-zone",
          "limiter.route.all.pattern", "/*",
          "limiter.route.all.policies", "daily");

  private static HttpResponse<String> tokyo(TestServer server) throws Exception {
    return Http.get(server.uri("/"), "X-Api-Key", "tokyo", "X-Zone", "Asia/Tokyo");
  }

  /** A customer whose resolver answers no zone: the configured one, UTC. */
  private static HttpResponse<String> utc(TestServer server) throws Exception {
    return Http.get(server.uri("/"), "X-Api-Key", "utc");
  }

  @Test
  void aTokyoCustomersDayEndsAtTokyoMidnightWhileAUtcCustomerWaits() throws Exception {
    try (ManualTime time = new ManualTime(NOON);
        TestServer server = TestServer.start(TestServer.context(time.filter(DAILY)))) {
      // Given both customers used their 2 requests of the day
      for (int i = 0; i < 2; i++) {
        assertThat(tokyo(server).statusCode()).isEqualTo(200);
        assertThat(utc(server).statusCode()).isEqualTo(200);
      }
      HttpResponse<String> refused = tokyo(server);
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("10800");
      assertThat(utc(server).headers().firstValue("Retry-After")).hasValue("43200");

      // When the clock reaches 1 ms before Tokyo's midnight, Then Tokyo is still refused
      time.advance(UNTIL_TOKYO_MIDNIGHT.minus(MS));
      assertThat(tokyo(server).statusCode()).isEqualTo(429);

      // And at Tokyo's midnight Tokyo is admitted, while UTC's day goes on
      time.advance(MS);
      assertThat(tokyo(server).statusCode()).isEqualTo(200);
      assertThat(utc(server).statusCode()).isEqualTo(429);
    }
  }

  @Test
  void aLiveChangeReachesTheTokyoCustomerInTokyosCalendar() throws Exception {
    try (ManualTime time = new ManualTime(NOON);
        TestServer server = TestServer.start(TestServer.context(time.filter(DAILY)))) {
      // Given the Tokyo customer used 2 of the day's 2 requests
      assertThat(tokyo(server).statusCode()).isEqualTo(200);
      assertThat(tokyo(server).statusCode()).isEqualTo(200);
      assertThat(tokyo(server).statusCode()).isEqualTo(429);

      // When an operator raises the quota to 3 a day
      server.runtime().live().policies().change("daily", "100/s burst=200, 3/day");

      // Then the Tokyo customer gets a third request, shown as 3 a day, and no fourth
      HttpResponse<String> third = tokyo(server);
      assertThat(third.statusCode()).isEqualTo(200);
      assertThat(third.headers().firstValue("RateLimit-Policy").orElseThrow()).contains("q=3;");
      HttpResponse<String> fourth = tokyo(server);
      assertThat(fourth.statusCode()).isEqualTo(429);
      assertThat(fourth.headers().firstValue("Retry-After")).hasValue("10800");

      // And their new day still starts at Tokyo's midnight, to the millisecond
      time.advance(UNTIL_TOKYO_MIDNIGHT.minus(MS));
      assertThat(tokyo(server).statusCode()).isEqualTo(429);
      time.advance(MS);
      for (int i = 0; i < 3; i++) {
        assertThat(tokyo(server).statusCode()).isEqualTo(200);
      }
      assertThat(tokyo(server).statusCode()).isEqualTo(429);
    }
  }
}
