package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Request costs over real HTTP: a costly request drains the quota faster; a bad cost costs the
 * policy's permits and is never a 500. 10 permits a minute per API key, on the in-memory store.
 */
class CostTest {

  private static Map<String, String> llm(String cost, String... more) {
    return Props.with(
        Props.of(
            "limiter.policy.llm.algorithm", "fixed-window",
            "limiter.policy.llm.limits", "10/1m",
            "limiter.policy.llm.key", "header:X-Api-Key",
            "limiter.policy.llm.cost", cost,
            "limiter.route.all.pattern", "/*",
            "limiter.route.all.policies", "llm"),
        more);
  }

  private static HttpResponse<String> get(TestServer server, String apiKey, String cost)
      throws Exception {
    return cost == null
        ? Http.get(server.uri("/"), "X-Api-Key", apiKey)
        : Http.get(server.uri("/"), "X-Api-Key", apiKey, "X-Cost", cost);
  }

  @Test
  void aCostlyRequestDrainsTheQuotaFaster() throws Exception {
    try (TestServer server = TestServer.withFilter(llm("header:X-Cost"))) {
      // 8 of 10, then 2 requests of 1 each: the quota is spent
      HttpResponse<String> costly = get(server, "a", "8");
      assertThat(costly.statusCode()).isEqualTo(200);
      assertThat(costly.headers().firstValue("RateLimit"))
          .hasValueSatisfying(v -> assertThat(v).contains("r=2"));
      assertThat(get(server, "a", "1").statusCode()).isEqualTo(200);
      assertThat(get(server, "a", null).statusCode()).isEqualTo(200);
      assertThat(get(server, "a", "1").statusCode()).isEqualTo(429);
      // another key, requests of 1: ten pass
      for (int i = 0; i < 10; i++) {
        assertThat(get(server, "b", "1").statusCode()).as("request %d", i).isEqualTo(200);
      }
      assertThat(get(server, "b", "1").statusCode()).isEqualTo(429);
    }
  }

  @Test
  void aBadCostCostsThePermitsAndACostAboveTheCapacityIsRefusedAsSuch() throws Exception {
    try (TestServer server =
        TestServer.withFilter(llm("header:X-Cost", "limiter.policy.llm.permits", "2"))) {
      for (String bad : new String[] {"many", "-1", "0", "1.5", "", "9999999999999999999999"}) {
        HttpResponse<String> response = get(server, "bad:" + bad, bad);
        // over the capacity (10): refused, never charged; otherwise charged the permits (2)
        if (bad.startsWith("9")) {
          assertThat(response.statusCode()).as("cost %s", bad).isEqualTo(429);
          assertThat(response.body()).contains("exceeds");
        } else {
          assertThat(response.statusCode()).as("cost '%s'", bad).isEqualTo(200);
          assertThat(response.headers().firstValue("RateLimit"))
              .as("cost '%s'", bad)
              .hasValueSatisfying(v -> assertThat(v).contains("r=8"));
        }
      }
    }
  }

  @Test
  void aCostFromAResolver() throws Exception {
    // TenantResolver (ServiceLoader) answers the X-Tenant header: here, a number
    try (TestServer server = TestServer.withFilter(llm("resolver:tenant"))) {
      HttpResponse<String> response = Http.get(server.uri("/"), "X-Api-Key", "a", "X-Tenant", "7");
      assertThat(response.headers().firstValue("RateLimit"))
          .hasValueSatisfying(v -> assertThat(v).contains("r=3"));
    }
  }

  @Test
  void aCostResolverThatDoesNotExistFailsTheStart() {
    assertThatThrownBy(() -> TestServer.withFilter(llm("resolver:nobody")).close())
        .hasStackTraceContaining("limiter.policy.llm.cost")
        .hasStackTraceContaining("nobody");
  }

  @Test
  void anActualCostReportedByTheApplicationSettlesTheDifference() throws Exception {
    try (ManualTime time = new ManualTime();
        TestServer server =
            TestServer.start(TestServer.context(time.filter(llm("header:X-Cost"))))) {
      // reserves 5, uses 1: 4 come back, so 8 remain after the next request of 1
      assertThat(used(server, "5", "1", null).statusCode()).isEqualTo(200);
      assertThat(get(server, "a", "1").headers().firstValue("RateLimit"))
          .hasValueSatisfying(v -> assertThat(v).contains("r=8"));
      // reserves 1, reports 30 from an async thread: the key owes, and the next request is refused
      assertThat(used(server, "1", "30", "async:200").statusCode()).isEqualTo(200);
      HttpResponse<String> owing = get(server, "a", "1");
      assertThat(owing.statusCode()).isEqualTo(429);
      // until the debt is paid: into the next window, and a retry at Retry-After passes
      long seconds = Long.parseLong(owing.headers().firstValue("Retry-After").orElseThrow());
      assertThat(seconds).isGreaterThan(60);
      time.advance(Duration.ofSeconds(seconds - 1));
      assertThat(get(server, "a", "1").statusCode()).isEqualTo(429);
      time.advance(Duration.ofSeconds(1));
      assertThat(get(server, "a", "1").statusCode()).isEqualTo(200);
      // a report made before the application failed settles too (count=all counts failures):
      // 1 + 9 of 10 are spent
      assertThat(used(server, "2", "9", "throw").statusCode()).isEqualTo(500);
      assertThat(get(server, "a", "1").statusCode()).isEqualTo(429);
    }
  }

  private static HttpResponse<String> used(
      TestServer server, String cost, String used, String answer) throws Exception {
    return answer == null
        ? Http.get(server.uri("/"), "X-Api-Key", "a", "X-Cost", cost, "X-Used", used)
        : Http.get(
            server.uri("/"), "X-Api-Key", "a", "X-Cost", cost, "X-Used", used, "X-Answer", answer);
  }
}
