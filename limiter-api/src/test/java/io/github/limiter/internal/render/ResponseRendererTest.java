package io.github.limiter.internal.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Cases;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ResponseRendererTest {

  static final long S = 1_000_000_000L;
  static final Limit HUNDRED_PER_MINUTE = Limit.of(100, Duration.ofMinutes(1));
  static final Policy API = Policy.fixedWindow("api", HUNDRED_PER_MINUTE);
  static final HttpSettings LEGACY = new HttpSettings(429, 503, true, true, List.of(), 64);
  static final HttpSettings NO_HEADERS = new HttpSettings(429, 503, false, false, List.of(), 64);
  static final HttpSettings ONLY_LEGACY = new HttpSettings(429, 503, false, true, List.of(), 64);

  final ResponseRenderer renderer = new ResponseRenderer(HttpSettings.DEFAULTS);

  /** The body as a JSON object, or a failure if it is not one. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> json(String body) {
    Object parsed = MiniJson.parse(body);
    assertThat(parsed).isInstanceOf(Map.class);
    return (Map<String, Object>) parsed;
  }

  static Map<String, String> headers(ResponseRenderer renderer, Policy policy, Decision decision) {
    Map<String, String> headers = new LinkedHashMap<>();
    renderer.headers(
        policy,
        decision,
        (name, value) -> assertThat(headers.put(name, value)).as("once: " + name).isNull());
    return headers;
  }

  @ParameterizedTest(name = "{0} ns -> {1} s")
  @CsvSource({
    "0, 1",
    "1, 1",
    "999999999, 1",
    "1000000000, 1",
    "1000000001, 2",
    "1500000000, 2",
    "59900000000, 60",
    "60000000000, 60",
    "9223372036854775807, 9223372037"
  })
  void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne(long nanos, long seconds) {
    assertThat(ResponseRenderer.retryAfterSeconds(nanos)).isEqualTo(seconds);
  }

  static Stream<Named<Long>> waits() {
    return Cases.random(5, 300, gen -> gen.between(0, Long.MAX_VALUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("waits")
  void retryAfterIsNeverEarlierThanTheRealRetryTime(long nanos) {
    long seconds = ResponseRenderer.retryAfterSeconds(nanos);

    assertThat(seconds).isPositive();
    assertThat(Math.multiplyHigh(seconds, S) > 0 || seconds * S >= nanos).isTrue();
    assertThat(seconds == 1 || (seconds - 1) * S < nanos).as("the least such second").isTrue();
  }

  @Test
  void anAdmissionCarriesRateLimitPolicyAndRateLimitHeaders() {
    // Given a fixed window of 100/min with 58 used, 42 s into the window (store time)
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    clock.advance(Duration.ofMillis(41_500));
    store.decide(API, "k", 57);
    Decision decision = store.decide(API, "k", 1);

    // When rendered
    Map<String, String> headers = headers(renderer, API, decision);

    // Then r is what remains and t the seconds to reset, rounded up (18.5 s -> 19)
    assertThat(headers)
        .containsExactly(
            Map.entry("RateLimit-Policy", "\"api\";q=100;w=60"),
            Map.entry("RateLimit", "\"api\";r=42;t=19"));
  }

  @Test
  void theDocumentedExampleRendersExactly() {
    Decision decision = Decision.allowed("api", HUNDRED_PER_MINUTE, 42, 18 * S, 0);

    assertThat(headers(renderer, API, decision))
        .containsEntry("RateLimit-Policy", "\"api\";q=100;w=60")
        .containsEntry("RateLimit", "\"api\";r=42;t=18");
  }

  @Test
  void aFreshKeyResetsInZeroSeconds() {
    Decision fresh = Decision.allowed("api", HUNDRED_PER_MINUTE, 100, 0, 0);

    assertThat(headers(renderer, API, fresh)).containsEntry("RateLimit", "\"api\";r=100;t=0");
  }

  @Test
  void aBucketReportsItsCapacityAndTheTimeToFillIt() {
    Policy bucket = Policy.tokenBucket("tb", Limit.bucket(10, Duration.ofSeconds(1), 20));
    Policy slow = Policy.leakyBucket("lb", Limit.bucket(1, Duration.ofMillis(300), 1));

    assertThat(
            headers(
                renderer, bucket, Decision.allowed("tb", bucket.limits().get(0), 19, S / 10, 0)))
        .containsEntry("RateLimit-Policy", "\"tb\";q=20;w=2")
        .containsEntry("RateLimit", "\"tb\";r=19;t=1");
    assertThat(
            headers(renderer, slow, Decision.allowed("lb", slow.limits().get(0), 0, S / 4, S / 4)))
        .containsEntry("RateLimit-Policy", "\"lb\";q=1;w=1");
  }

  @Test
  void aMultiLimitPolicyListsEachLimitAndReportsTheNearestToRejecting() {
    Limit perSecond = Limit.of(10, Duration.ofSeconds(1));
    Limit perHour = Limit.of(1000, Duration.ofHours(1));
    Policy policy = Policy.fixedWindow("api", perSecond, perHour);

    Map<String, String> headers =
        headers(renderer, policy, Decision.allowed("api", perHour, 3, 1800 * S, 0));

    assertThat(headers)
        .containsEntry("RateLimit-Policy", "\"api\";q=10;w=1, \"api.2\";q=1000;w=3600")
        .containsEntry("RateLimit", "\"api.2\";r=3;t=1800");
  }

  @Test
  void legacyHeadersComeOnTopWhenAskedFor() {
    Decision decision = Decision.allowed("api", HUNDRED_PER_MINUTE, 42, 18 * S, 0);

    assertThat(headers(new ResponseRenderer(LEGACY), API, decision))
        .containsExactly(
            Map.entry("RateLimit-Policy", "\"api\";q=100;w=60"),
            Map.entry("RateLimit", "\"api\";r=42;t=18"),
            Map.entry("X-RateLimit-Limit", "100"),
            Map.entry("X-RateLimit-Remaining", "42"),
            Map.entry("X-RateLimit-Reset", "18"));
    assertThat(headers(new ResponseRenderer(ONLY_LEGACY), API, decision))
        .containsOnlyKeys("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");
  }

  @Test
  void headersSwitchedOffRenderNone() {
    Decision decision = Decision.allowed("api", HUNDRED_PER_MINUTE, 42, 18 * S, 0);

    assertThat(headers(new ResponseRenderer(NO_HEADERS), API, decision)).isEmpty();
  }

  @Test
  void aQuotaIsListedWithItsUnitsLengthAndRefusesUntilItsPeriodEnds() {
    // Given a bucket of 10 a second beside a quota of 9999 a month, whose interval is inexact
    Limit rate = Limit.bucket(10, Duration.ofSeconds(1), 20);
    Limit quota = Limit.parse("9999/month");
    Policy policy = Policy.tokenBucket("api", rate, quota);

    // When the quota refuses, 3 h 20 min before its month ends
    long untilEnd = 12_000 * S;
    RateLimitResponse response =
        renderer.rejection(policy, Decision.limited("api", quota, untilEnd, untilEnd));

    // Then both are listed, the month at its nominal length, and the waits are to its end
    assertThat(response.header("RateLimit-Policy"))
        .isEqualTo("\"api\";q=20;w=2, \"api.2\";q=9999;w=2629746");
    assertThat(response.header("RateLimit")).isEqualTo("\"api.2\";r=0;t=12000");
    assertThat(response.header("Retry-After")).isEqualTo("12000");
  }

  @Test
  void aRejectionIs429WithRetryAfterNoStoreHeadersAndAProblemDocument() {
    // Given a rejection that may retry in 17.2 s
    Decision decision =
        Decision.limited("api", HUNDRED_PER_MINUTE, 17_200_000_000L, 17_200_000_000L);

    // When rendered
    RateLimitResponse response = renderer.rejection(API, decision);

    // Then
    assertThat(response.status()).isEqualTo(429);
    assertThat(response.header("Retry-After")).isEqualTo("18");
    assertThat(response.header("cache-control")).isEqualTo("no-store");
    assertThat(response.header("RateLimit")).isEqualTo("\"api\";r=0;t=18");
    assertThat(response.header("RateLimit-Policy")).isEqualTo("\"api\";q=100;w=60");
    assertThat(response.header("X-RateLimit-Limit")).isNull();
    assertThat(response.contentType()).isEqualTo("application/problem+json");
    Map<String, Object> problem = json(response.body());
    assertThat(problem).containsOnlyKeys("type", "title", "status", "detail", "policies");
    assertThat(problem.get("type")).isEqualTo("urn:limiter:problem:rate-limited");
    assertThat(problem.get("title")).isEqualTo("Too Many Requests");
    assertThat(problem.get("status")).isEqualTo(429L);
    assertThat((String) problem.get("detail")).contains("'api'").contains("18 s");
    assertThat(problem.get("policies")).isEqualTo(List.of("api"));
  }

  @Test
  void theRetryAfterOfARealRejectionIsNeverEarlierThanTheRealRetryTime() {
    // Given real rejections from a store at many moments of a window
    ManualClock clock = ManualClock.at(ManualClock.JUST_BELOW_ZERO);
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    Policy tiny = Policy.tokenBucket("tb", Limit.of(1, Duration.ofMillis(2500)));
    List<String> checked = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      clock.advance(7_777_777L);
      Decision decision = store.decide(tiny, "k", 1);
      if (decision.isAllowed()) {
        continue;
      }

      // When rendered
      long retryAfter = Long.parseLong(renderer.rejection(tiny, decision).header("Retry-After"));

      // Then a client obeying it finds the request admitted... and a second earlier, maybe not
      assertThat(retryAfter * S).isGreaterThanOrEqualTo(decision.retryAfterNanos());
      assertThat((retryAfter - 1) * S).isLessThan(Math.max(1, decision.retryAfterNanos()));
      checked.add(decision.toString());
    }
    assertThat(checked).hasSizeGreaterThan(100);
  }

  @Test
  void anOutageIs503WithRetryAfterAndNoRateLimitHeaders() {
    Decision decision = Decision.unavailable("api", HUNDRED_PER_MINUTE, S);

    RateLimitResponse response = renderer.rejection(API, decision);

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.header("Retry-After")).isEqualTo("1");
    assertThat(response.header("Cache-Control")).isEqualTo("no-store");
    assertThat(response.header("RateLimit")).isNull();
    assertThat(response.header("RateLimit-Policy")).isNull();
    Map<String, Object> problem = json(response.body());
    assertThat(problem.get("type")).isEqualTo("urn:limiter:problem:unavailable");
    assertThat(problem.get("title")).isEqualTo("Service Unavailable");
    assertThat(problem.get("status")).isEqualTo(503L);
    assertThat(
            new ResponseRenderer(new HttpSettings(429, 500, true, false, List.of(), 64))
                .rejection(API, decision)
                .status())
        .isEqualTo(500);
  }

  @Test
  void aRequestThatCanNeverPassGetsNoRetryAfter() {
    Decision decision = Decision.exceedsCapacity("api", HUNDRED_PER_MINUTE, 100, 0);

    RateLimitResponse response = renderer.rejection(API, decision);

    assertThat(response.status()).isEqualTo(429);
    assertThat(response.header("Retry-After")).isNull();
    assertThat(response.header("Cache-Control")).isEqualTo("no-store");
    assertThat(response.header("RateLimit")).isEqualTo("\"api\";r=0;t=0");
    Map<String, Object> problem = json(response.body());
    assertThat(problem.get("type")).isEqualTo("urn:limiter:problem:exceeds-capacity");
    assertThat((String) problem.get("detail")).contains("can ever admit");
  }

  @Test
  void theRejectionStatusIsConfigurableAndHeadersCanBeOff() {
    Decision decision = Decision.limited("api", HUNDRED_PER_MINUTE, 5 * S, 5 * S);

    RateLimitResponse response =
        new ResponseRenderer(new HttpSettings(503, 503, false, false, List.of(), 64))
            .rejection(API, decision);

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.headers())
        .extracting(Map.Entry::getKey)
        .containsExactly("Retry-After", "Cache-Control");
    assertThat(json(response.body())).isNotEmpty();
  }

  @Test
  void everyPolicyNameMakesAValidProblemDocument() {
    for (String name : List.of("a", "API_v2.strict-1", "x".repeat(64))) {
      Policy policy = Policy.fixedWindow(name, HUNDRED_PER_MINUTE);
      for (Decision decision :
          List.of(
              Decision.limited(name, HUNDRED_PER_MINUTE, S, S),
              Decision.exceedsCapacity(name, HUNDRED_PER_MINUTE, 1, 0),
              Decision.unavailable(name, HUNDRED_PER_MINUTE, S))) {
        Map<String, Object> problem = json(renderer.rejection(policy, decision).body());
        assertThat(problem.get("policies")).isEqualTo(List.of(name));
      }
    }
  }

  @Test
  void aRejectionIsWrittenStatusFirstBodyLastAndItsBodyTellsEachWaitExactly() throws Exception {
    // Given one renderer, with a custom status, rendering one policy's rejections again and again
    ResponseRenderer custom =
        new ResponseRenderer(new HttpSettings(420, 503, true, false, List.of(), 64));
    for (long seconds : new long[] {1, 18, 3600, 9_223_372_036L}) {
      Decision decision = Decision.limited("api", HUNDRED_PER_MINUTE, seconds * S, seconds * S - 1);
      List<String> calls = new ArrayList<>();
      String[] body = new String[1];

      // When written to a sink
      custom.reject(
          API,
          decision,
          new ResponseRenderer.RejectionSink() {
            @Override
            public void status(int status) {
              calls.add("status " + status);
            }

            @Override
            public void header(String name, String value) {
              calls.add(name + ": " + value);
            }

            @Override
            public void body(String contentType, byte[] bytes) {
              calls.add("body " + contentType);
              body[0] = new String(bytes, StandardCharsets.UTF_8);
            }
          });

      // Then the calls come in the order of an HTTP response, and the body states this wait
      assertThat(calls)
          .containsExactly(
              "status 420",
              "Retry-After: " + seconds,
              "Cache-Control: no-store",
              "RateLimit-Policy: \"api\";q=100;w=60",
              "RateLimit: \"api\";r=0;t=" + seconds,
              "body application/problem+json");
      Map<String, Object> problem = json(body[0]);
      assertThat(problem.get("status")).isEqualTo(420L);
      assertThat(problem.get("detail"))
          .isEqualTo("Rate limit of policy 'api' exceeded; retry after " + seconds + " s.");
      assertThat(custom.rejection(API, decision).body()).isEqualTo(body[0]);
    }
  }

  @Test
  void anAdmissionIsNotARejection() {
    Decision admitted = Decision.allowed("api", HUNDRED_PER_MINUTE, 1, 0, 0);

    assertThatThrownBy(() -> renderer.rejection(API, admitted))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a rejection");
  }

  @Test
  void theMiniJsonCheckerRejectsInvalidDocuments() {
    for (String bad :
        List.of(
            "{",
            "{\"a\":}",
            "{\"a\":1,}",
            "{'a':1}",
            "[1 2]",
            "{\"a\":1}x",
            "\"a\nb\"",
            "01",
            "{\"a\":1,\"a\":2}")) {
      assertThatThrownBy(() -> MiniJson.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(MiniJson.parse(" {\"a\": [1, -2.5e3, true, null, \"\\u00e4\\\"\"]} "))
        .isEqualTo(Map.of("a", Arrays.asList(1L, -2500.0, true, null, "ä\"")));
  }
}
