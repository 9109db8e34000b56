package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limiter;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.servlet.RateLimitFilter;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One configuration, two adapters: a real Jersey application with the Jakarta REST filters and a
 * plain servlet behind the servlet filter, each on its own Jetty and in-memory store, answer the
 * same requests with the same limiter responses: status, {@code Retry-After}, {@code
 * Cache-Control}, the {@code RateLimit} headers and the problem+json body, byte for byte.
 */
class SameResponsesTest {

  /** The headers the limiter writes; the rest (Date, Server) is the container's. */
  private static final List<String> LIMITER_HEADERS =
      List.of(
          "RateLimit",
          "RateLimit-Policy",
          "Retry-After",
          "Cache-Control",
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset");

  private static final Map<String, String> CONFIG =
      TestApp.props(
          "limiter.http.legacy-headers", "true",
          "limiter.policy.api.algorithm", "fixed-window",
          "limiter.policy.api.limits", "3/1h",
          "limiter.policy.api.key", "header:X-Client",
          "limiter.policy.api.on-missing-key", "reject",
          "limiter.policy.llm.algorithm", "token-bucket",
          "limiter.policy.llm.limits", "10/1h",
          "limiter.policy.llm.key", "header:X-Client",
          "limiter.policy.llm.cost", "header:X-Tokens",
          "limiter.route.api.pattern", "/items/*",
          "limiter.route.api.methods", "GET",
          "limiter.route.api.policies", "api",
          "limiter.route.llm.pattern", "/items",
          "limiter.route.llm.policies", "llm");

  private static final ManualClock CLOCK = ManualClock.at(Duration.ofDays(1).toNanos());

  private static TestApp jaxrs;
  private static TestApp servlet;

  @BeforeAll
  static void start() throws Exception {
    // Each adapter over a store of its own, both on one manual clock: the same state, the same time
    jaxrs =
        TestApp.jersey(
            new ResourceConfig(Resources.class)
                .register(new RateLimitFeature(ConfigLookup.of(CONFIG), limiter())));
    servlet = TestApp.servletFilter(new RateLimitFilter(ConfigLookup.of(CONFIG), limiter()));
  }

  private static Limiter limiter() {
    return Limiter.of(
        InMemoryStore.builder()
            .clock(CLOCK)
            .wallClock(Clock.fixed(Instant.parse("2026-01-05T10:00:00Z"), ZoneOffset.UTC))
            .build());
  }

  @AfterAll
  static void stop() throws Exception {
    jaxrs.close();
    servlet.close();
  }

  @Test
  void overTheLimitBothAnswerTheSame429() throws Exception {
    for (int i = 1; i <= 5; i++) {
      HttpResponse<String> a = jaxrs.get("/items/7", "X-Client", "over");
      HttpResponse<String> b = servlet.get("/items/7", "X-Client", "over");
      assertThat(a.statusCode()).as("request %d", i).isEqualTo(i <= 3 ? 200 : 429);
      assertSame(a, b, "request " + i);
    }
    HttpResponse<String> refused = jaxrs.get("/items/7", "X-Client", "over");
    assertThat(refused.headers().firstValue("Retry-After")).isPresent();
    assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(refused.headers().firstValue("RateLimit")).hasValue("\"api\";r=0;t=3600");
    assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=3;w=3600");
    assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(refused.body())
        .isEqualTo(
            "{\"type\":\"urn:limiter:problem:rate-limited\",\"title\":\"Too Many Requests\","
                + "\"status\":429,\"detail\":\"Rate limit of policy 'api' exceeded; retry after"
                + " 3600 s.\",\"policies\":[\"api\"]}");
  }

  @Test
  void aRequestWithoutItsKeyGetsTheSameMissingKeyRejection() throws Exception {
    HttpResponse<String> a = jaxrs.get("/items/1");
    HttpResponse<String> b = servlet.get("/items/1");
    assertThat(a.statusCode()).isEqualTo(429);
    assertThat(a.headers().firstValue("Retry-After")).isEmpty(); // a key, not time, is missing
    assertThat(a.body()).contains("urn:limiter:problem:missing-key");
    assertSame(a, b, "no key");
  }

  @Test
  void costsChargeTheSameAndAnImpossibleCostIsTheSameRejection() throws Exception {
    String[][] requests = {{"4"}, {"5"}, {"2"}, {"11"}, {"not-a-number"}, {"-3"}};
    for (String[] tokens : requests) {
      HttpResponse<String> a = jaxrs.get("/items", "X-Client", "cost", "X-Tokens", tokens[0]);
      HttpResponse<String> b = servlet.get("/items", "X-Client", "cost", "X-Tokens", tokens[0]);
      assertSame(a, b, "cost " + tokens[0]);
    }
    // 4 + 5 of 10 leave 1: 2 is refused, 11 can never pass; a bad cost counts as 1 permit
    assertThat(
            jaxrs
                .get("/items", "X-Client", "cost2", "X-Tokens", "4")
                .headers()
                .allValues("RateLimit"))
        .contains("\"llm\";r=6;t=1440");
    HttpResponse<String> never = jaxrs.get("/items", "X-Client", "cost2", "X-Tokens", "11");
    assertThat(never.statusCode()).isEqualTo(429);
    assertThat(never.headers().firstValue("Retry-After")).isEmpty();
    assertThat(never.body()).contains("urn:limiter:problem:exceeds-capacity");
  }

  @Test
  void requestsOnNoRoutePassUntouchedAndOnARouteWithoutAResourceAreDecided() throws Exception {
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> free = jaxrs.get("/elsewhere/" + i, "X-Client", "free");
      assertThat(free.statusCode()).isEqualTo(404);
      assertThat(free.headers().firstValue("RateLimit")).isEmpty();
    }
    // A route's path is decided even where no resource matches it, as under the servlet filter
    for (int i = 1; i <= 3; i++) {
      assertThat(jaxrs.get("/items/7/none", "X-Client", "unmatched").statusCode()).isEqualTo(404);
      assertThat(servlet.get("/items/7/none", "X-Client", "unmatched").statusCode()).isEqualTo(200);
    }
    HttpResponse<String> refused = jaxrs.get("/items/7/none", "X-Client", "unmatched");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertSame(refused, servlet.get("/items/7/none", "X-Client", "unmatched"), "unmatched");
  }

  @Test
  void aRoutedPathWithoutAResourceForTheMethodIsStillDecided() throws Exception {
    HttpResponse<String> a = jaxrs.send("DELETE", "/items", "X-Client", "method", "X-Tokens", "10");
    HttpResponse<String> b =
        servlet.send("DELETE", "/items", "X-Client", "method", "X-Tokens", "10");
    assertThat(a.statusCode()).isEqualTo(405);
    assertThat(b.statusCode()).isEqualTo(405);
    assertThat(a.headers().allValues("RateLimit")).containsExactly("\"llm\";r=0;t=3600");
    assertThat(limiterHeaders(a)).isEqualTo(limiterHeaders(b));
    HttpResponse<String> refused = jaxrs.send("DELETE", "/items", "X-Client", "method");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertSame(refused, servlet.send("DELETE", "/items", "X-Client", "method"), "DELETE");
  }

  private static void assertSame(HttpResponse<String> a, HttpResponse<String> b, String what) {
    assertThat(a.statusCode()).as(what + ": status").isEqualTo(b.statusCode());
    assertThat(limiterHeaders(a)).as(what + ": limiter headers").isEqualTo(limiterHeaders(b));
    if (a.statusCode() != 200) {
      assertThat(a.headers().firstValue("Content-Type"))
          .as(what + ": content type")
          .isEqualTo(b.headers().firstValue("Content-Type"));
      assertThat(a.body()).as(what + ": body").isEqualTo(b.body());
    }
  }

  private static Map<String, List<String>> limiterHeaders(HttpResponse<String> response) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (String name : LIMITER_HEADERS) {
      headers.put(name, response.headers().allValues(name));
    }
    return headers;
  }
}
