package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keys under the Jakarta REST filters, configured by the application's {@code limiter.*}
 * properties: a header, the client address (the servlet container's, behind trusted proxies the
 * forwarded one), and headers no client should send, which never give a 500.
 */
class KeysTest {

  private static Map<String, String> onePerHour(String key, String... more) {
    Map<String, String> config =
        TestApp.props(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "1/1h",
            "limiter.policy.api.key", key,
            "limiter.route.api.pattern", "/items/*",
            "limiter.route.api.policies", "api");
    config.putAll(TestApp.props(more));
    return config;
  }

  @Test
  void aHeaderKeyGivesEachClientItsOwnBudget() throws Exception {
    try (TestApp app = TestApp.jersey(TestApp.resources(onePerHour("header:X-Client")))) {
      assertThat(app.get("/items/1", "X-Client", "a").statusCode()).isEqualTo(200);
      assertThat(app.get("/items/1", "X-Client", "b").statusCode()).isEqualTo(200);
      assertThat(app.get("/items/1", "X-Client", "a").statusCode()).isEqualTo(429);
      assertThat(app.get("/items/1", "X-Client", "b").statusCode()).isEqualTo(429);
    }
  }

  @Test
  void theRemoteAddressIsTheServletContainersAndAForgedForwardedHeaderIsIgnored() throws Exception {
    try (TestApp app = TestApp.jersey(TestApp.resources(onePerHour("remote-address")))) {
      assertThat(app.get("/items/1", "X-Forwarded-For", "10.0.0.1").statusCode()).isEqualTo(200);
      HttpResponse<String> second = app.get("/items/1", "X-Forwarded-For", "10.0.0.2");
      assertThat(second.statusCode()).isEqualTo(429);
      assertThat(second.headers().firstValue("RateLimit")).hasValue("\"api\";r=0;t=3600");
    }
  }

  @Test
  void behindATrustedProxyEachForwardedClientHasItsOwnBudget() throws Exception {
    try (TestApp app =
        TestApp.jersey(
            TestApp.resources(
                onePerHour("remote-address", "limiter.http.trusted-proxies", "127.0.0.1/32")))) {
      assertThat(app.get("/items/1", "X-Forwarded-For", "10.0.0.1").statusCode()).isEqualTo(200);
      assertThat(app.get("/items/1", "X-Forwarded-For", "10.0.0.2").statusCode()).isEqualTo(200);
      assertThat(app.get("/items/1", "X-Forwarded-For", "10.0.0.1").statusCode()).isEqualTo(429);
    }
  }

  @Test
  void badHeadersNeverGiveA500() throws Exception {
    Map<String, String> config =
        onePerHour(
            "remote-address",
            "limiter.http.trusted-proxies",
            "127.0.0.1/32",
            "limiter.policy.api.cost",
            "header:X-Tokens",
            "limiter.policy.api.limits",
            "100/1h");
    String[][] bad = {
      {"X-Forwarded-For", "not-an-address, [::1"},
      {"X-Forwarded-For", ",,,"},
      {"X-Forwarded-For", "1.2.3.4:99999"},
      {"X-Tokens", "99999999999999999999999"},
      {"X-Tokens", "-1"},
      {"X-Tokens", "1.5e3"},
      {"X-Tokens", "\u00e9"},
      {"X-Forwarded-For", "x".repeat(4000)},
    };
    try (TestApp app = TestApp.jersey(TestApp.resources(config))) {
      for (String[] header : bad) {
        HttpResponse<String> response = app.get("/items/1", header[0], header[1]);
        assertThat(response.statusCode()).as("%s: %s", header[0], header[1]).isIn(200, 429);
      }
    }
  }
}
