package io.github.limiter.sample.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.redis.RedisServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The sample on real Quarkus (JVM mode), started from its {@code quarkus-run.jar} as a process: the
 * route filters of limiter-jaxrs and {@code @Limited} each answer 429 with {@code Retry-After} and
 * {@code Cache-Control: no-store} past their limit, {@code /q/metrics} counts each 429, two nodes
 * on one Redis share one budget, {@code /q/health/ready} goes down when that Redis stops, and a bad
 * setting fails the start naming the key and the value.
 */
class QuarkusSampleIT {

  private static final Pattern REJECTED =
      Pattern.compile(
          "^limiter_decisions_total\\{outcome=\"rejected\",policy=\"([^\"]+)\",[^}]*\\} (\\S+)$",
          Pattern.MULTILINE);

  @Test
  void routeAndLimitedAnswer429PastTheirLimitsAndTheMetricsCountThem() {
    try (QuarkusApp app =
        QuarkusApp.start("memory", QuarkusApp.settings(RedisServer.freePort(), null))) {
      int routeRejections = 0;
      for (int i = 1; i <= 5; i++) {
        HttpResponse<String> response = app.get("/api/route", "X-Client", "alice");
        if (i <= 3) {
          assertThat(response.statusCode()).as("route call %d", i).isEqualTo(200);
          assertThat(response.body()).isEqualTo("route");
        } else {
          assertRejected(response);
          routeRejections++;
        }
      }
      int limitedRejections = 0;
      for (int i = 1; i <= 4; i++) {
        HttpResponse<String> response = app.get("/api/limited", "X-Client", "alice");
        if (i <= 2) {
          assertThat(response.statusCode()).as("limited call %d", i).isEqualTo(200);
          assertThat(response.body()).isEqualTo("limited");
        } else {
          assertRejected(response);
          limitedRejections++;
        }
      }
      // Another client has budgets of its own.
      assertThat(app.get("/api/route", "X-Client", "bob").statusCode()).isEqualTo(200);
      assertThat(app.get("/api/limited", "X-Client", "bob").statusCode()).isEqualTo(200);

      String metrics = app.get("/q/metrics").body();
      assertThat(rejected(metrics, "conformance-route")).isEqualTo(routeRejections);
      assertThat(rejected(metrics, "conformance-limited")).isEqualTo(limitedRejections);
      assertThat(app.get("/q/health/ready").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void twoNodesOnOneRedisShareOneBudgetAndAreNotReadyWithoutIt() {
    try (RedisServer redis = RedisServer.start("quarkus-sample")) {
      Map<String, String> settings = QuarkusApp.settings(RedisServer.freePort(), redis);
      // Its requests are refused while the store cannot decide, so readiness depends on Redis.
      settings.put("limiter.policy.conformance-route.failure", "fail-closed");
      Map<String, String> other = new java.util.LinkedHashMap<>(settings);
      other.put("quarkus.http.port", Integer.toString(RedisServer.freePort()));
      try (QuarkusApp first = QuarkusApp.start("redis-first", settings);
          QuarkusApp second = QuarkusApp.start("redis-second", other)) {
        assertThat(first.get("/api/route", "X-Client", "carol").statusCode()).isEqualTo(200);
        assertThat(second.get("/api/route", "X-Client", "carol").statusCode()).isEqualTo(200);
        assertThat(first.get("/api/route", "X-Client", "carol").statusCode()).isEqualTo(200);
        assertRejected(second.get("/api/route", "X-Client", "carol"));
        assertRejected(first.get("/api/route", "X-Client", "carol"));

        assertThat(first.get("/api/limited", "X-Client", "carol").statusCode()).isEqualTo(200);
        assertThat(second.get("/api/limited", "X-Client", "carol").statusCode()).isEqualTo(200);
        assertRejected(first.get("/api/limited", "X-Client", "carol"));

        HttpResponse<String> ready = first.get("/q/health/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).contains("\"limiter\"").contains("\"store\": \"redis\"");

        redis.kill();
        assertThat(notReadyWithin(first, Duration.ofSeconds(30)))
            .as("readiness after Redis stopped")
            .contains("\"status\": \"DOWN\"");
      }
    }
  }

  @Test
  void aBadSettingFailsTheStartNamingTheKeyAndTheValue() {
    Map<String, String> settings = QuarkusApp.settings(RedisServer.freePort(), null);
    settings.put("limiter.policy.conformance-route.limits", "banana");
    String output = QuarkusApp.failedStart("bad-setting", settings);
    assertThat(output)
        .contains("limiter.policy.conformance-route.limits")
        .contains("'banana'")
        .doesNotContain("Listening on:");
  }

  private static void assertRejected(HttpResponse<String> response) {
    assertThat(response.statusCode()).isEqualTo(429);
    assertThat(response.headers().firstValue("Retry-After"))
        .hasValueSatisfying(value -> assertThat(Long.parseLong(value)).isPositive());
    assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
  }

  /** The rejections of {@code policy} on the Prometheus page, over every label but the policy. */
  static long rejected(String metrics, String policy) {
    long total = 0;
    Matcher matcher = REJECTED.matcher(metrics);
    while (matcher.find()) {
      if (matcher.group(1).equals(policy)) {
        total += (long) Double.parseDouble(matcher.group(2));
      }
    }
    return total;
  }

  /**
   * The readiness page once it answers 503, asking the route meanwhile so that the store notices
   * the outage; the last page if it never does.
   */
  private static String notReadyWithin(QuarkusApp app, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    HttpResponse<String> ready = app.get("/q/health/ready");
    while (ready.statusCode() != 503 && System.nanoTime() < deadline) {
      app.get("/api/route", "X-Client", "dave");
      try {
        Thread.sleep(200); // the breaker opens on real failures, in real time
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      ready = app.get("/q/health/ready");
    }
    return ready.body();
  }
}
