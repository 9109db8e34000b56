package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plans over real HTTP: the plan comes from header X-Plan, which only a trusted proxy may set. All
 * requests come from 127.0.0.1, so whether it is a trusted proxy decides whether X-Plan counts.
 */
class PlanTest {

  private static Map<String, String> plans(String trusted) {
    return Props.of(
        "limiter.policy.api.algorithm", "fixed-window",
        "limiter.policy.api.limits", "2/1h",
        "limiter.policy.api.key", "header:X-Api-Key",
        "limiter.policy.api.plan.pro.limits", "10/1h",
        "limiter.policy.api.plan-source", "header:X-Plan",
        "limiter.http.trusted-proxies", trusted,
        "limiter.route.all.pattern", "/*",
        "limiter.route.all.policies", "api");
  }

  private static HttpResponse<String> get(TestServer server, String key, String plan)
      throws Exception {
    return Http.get(server.uri("/"), "X-Api-Key", key, "X-Plan", plan);
  }

  @Test
  void aProKeyGetsMoreThanAFreeKeyBehindATrustedProxy() throws Exception {
    try (TestServer server = TestServer.withFilter(plans("127.0.0.1/32"))) {
      HttpResponse<String> pro = get(server, "p", "pro");
      assertThat(pro.headers().firstValue("RateLimit-Policy"))
          .hasValue("\"api.plan.pro\";q=10;w=3600");
      for (int i = 1; i < 10; i++) {
        assertThat(get(server, "p", "pro").statusCode()).as("pro request %d", i).isEqualTo(200);
      }
      assertThat(get(server, "p", "pro").statusCode()).isEqualTo(429);
      // a plan that is not configured falls back to the default plan (on-unknown-plan=default)
      HttpResponse<String> free = get(server, "f", "platinum");
      assertThat(free.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=2;w=3600");
      assertThat(get(server, "f", "platinum").statusCode()).isEqualTo(200);
      assertThat(get(server, "f", "platinum").statusCode()).isEqualTo(429);
    }
  }

  @Test
  void aClientCannotChooseItsPlanWithoutATrustedProxy() throws Exception {
    try (TestServer server = TestServer.withFilter(plans(""))) {
      HttpResponse<String> first = get(server, "p", "pro");
      assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=2;w=3600");
      assertThat(get(server, "p", "pro").statusCode()).isEqualTo(200);
      assertThat(get(server, "p", "pro").statusCode()).isEqualTo(429);
    }
  }
}
