package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Statuses, headers and the problem body, over real HTTP. */
class ResponseTest {

  private static final Map<String, String> API =
      Props.of(
          "limiter.policy.api.algorithm", "fixed-window",
          "limiter.policy.api.limits", "3/1m",
          "limiter.route.api.pattern", "/api/*",
          "limiter.route.api.policies", "api");

  @Test
  void admitsWithHeadersThenRejectsWithProblemBody() throws Exception {
    try (TestServer server = TestServer.withFilter(API)) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> ok = Http.get(server.uri("/api/items"));
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).startsWith("ok dispatch=REQUEST");
        assertThat(ok.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=3;w=60");
        assertThat(ok.headers().firstValue("RateLimit"))
            .get()
            .asString()
            .startsWith("\"api\";r=" + (2 - i) + ";t=");
        assertThat(ok.headers().firstValue("X-RateLimit-Limit")).isEmpty();
      }
      HttpResponse<String> rejected = Http.get(server.uri("/api/items"));
      assertThat(rejected.statusCode()).isEqualTo(429);
      long retryAfter = Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow());
      assertThat(retryAfter).isBetween(1L, 60L);
      assertThat(rejected.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(rejected.headers().firstValue("Content-Type"))
          .get()
          .asString()
          .startsWith("application/problem+json");
      assertThat(rejected.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=3;w=60");
      assertThat(rejected.headers().firstValue("RateLimit"))
          .hasValue("\"api\";r=0;t=" + retryAfter);
      assertThat(rejected.body())
          .contains(
              "\"type\":\"urn:limiter:problem:rate-limited\"",
              "\"status\":429",
              "\"policies\":[\"api\"]",
              "retry after " + retryAfter + " s")
          .doesNotContain("127.0.0.1");
      assertThat(server.stats().counts("api"))
          .isEqualTo(new RateLimitFilter.Stats.Counts(3, 1, 0, 0));

      // Unmatched requests pass untouched: no headers at all.
      HttpResponse<String> other = Http.get(server.uri("/other"));
      assertThat(other.statusCode()).isEqualTo(200);
      assertThat(other.headers().map().keySet())
          .noneMatch(name -> name.toLowerCase().contains("ratelimit"));
    }
  }

  @Test
  void aRetryAfterTheGivenSecondsIsAdmitted() throws Exception {
    Map<String, String> props =
        Props.of(
            "limiter.policy.bucket.algorithm", "token-bucket",
            "limiter.policy.bucket.limits", "1/s",
            "limiter.policy.window.algorithm", "fixed-window",
            "limiter.policy.window.limits", "2/1s",
            "limiter.route.bucket.pattern", "/bucket",
            "limiter.route.bucket.policies", "bucket",
            "limiter.route.window.pattern", "/window",
            "limiter.route.window.policies", "window");
    try (ManualTime time = new ManualTime();
        TestServer server = TestServer.start(TestServer.context(time.filter(props)))) {
      for (String path : new String[] {"/bucket", "/window"}) {
        HttpResponse<String> rejected;
        do {
          rejected = Http.get(server.uri(path));
        } while (rejected.statusCode() == 200);
        assertThat(rejected.statusCode()).isEqualTo(429);
        long seconds = Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow());
        assertThat(seconds).as(path).isEqualTo(1);
        time.advance(Duration.ofSeconds(seconds));
        assertThat(Http.get(server.uri(path)).statusCode())
            .as(path + " after Retry-After")
            .isEqualTo(200);
      }
    }
  }

  @Test
  void headersCanBeLegacyOrNone() throws Exception {
    try (TestServer server =
        TestServer.withFilter(Props.with(API, "limiter.http.legacy-headers", "true"))) {
      HttpResponse<String> ok = Http.get(server.uri("/api"));
      assertThat(ok.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
      assertThat(ok.headers().firstValue("X-RateLimit-Remaining")).hasValue("2");
      assertThat(Long.parseLong(ok.headers().firstValue("X-RateLimit-Reset").orElseThrow()))
          .isBetween(1L, 60L);
      assertThat(ok.headers().firstValue("RateLimit")).isPresent();
    }
    try (TestServer server =
        TestServer.withFilter(Props.with(API, "limiter.http.headers", "false"))) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> ok = Http.get(server.uri("/api"));
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().map().keySet())
            .noneMatch(name -> name.toLowerCase().contains("ratelimit"));
      }
      HttpResponse<String> rejected = Http.get(server.uri("/api"));
      assertThat(rejected.statusCode()).isEqualTo(429);
      assertThat(rejected.headers().firstValue("Retry-After")).isPresent();
    }
  }

  @Test
  void rejectionStatusIsConfigurable() throws Exception {
    Map<String, String> props =
        Props.with(
            API, "limiter.http.rejection-status", "503", "limiter.policy.api.limits", "1/1m");
    try (TestServer server = TestServer.withFilter(props)) {
      assertThat(Http.get(server.uri("/api")).statusCode()).isEqualTo(200);
      HttpResponse<String> rejected = Http.get(server.uri("/api"));
      assertThat(rejected.statusCode()).isEqualTo(503);
      assertThat(rejected.body()).contains("\"status\":503");
    }
  }

  /**
   * A store that cannot decide (here: full, refusing new keys) gives 503 with Retry-After and no
   * RateLimit.
   */
  @Test
  void unavailableStoreGives503() throws Exception {
    Map<String, String> props =
        Props.with(
            API,
            "limiter.policy.api.key",
            "header:X-Api-Key",
            "limiter.memory.max-keys",
            "1",
            "limiter.memory.overflow",
            "reject-new-keys");
    try (TestServer server = TestServer.withFilter(props)) {
      assertThat(Http.get(server.uri("/api"), "X-Api-Key", "first").statusCode()).isEqualTo(200);
      HttpResponse<String> unavailable = Http.get(server.uri("/api"), "X-Api-Key", "second");
      assertThat(unavailable.statusCode()).isEqualTo(503);
      assertThat(unavailable.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(unavailable.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(unavailable.headers().firstValue("RateLimit")).isEmpty();
      assertThat(unavailable.body()).contains("urn:limiter:problem:unavailable", "\"status\":503");
    }
  }

  @Test
  void routesMayNameMethods() throws Exception {
    Map<String, String> props =
        Props.with(API, "limiter.route.api.methods", "POST", "limiter.policy.api.limits", "1/1m");
    try (TestServer server = TestServer.withFilter(props)) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> get = Http.get(server.uri("/api"));
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.headers().firstValue("RateLimit")).isEmpty();
      }
      assertThat(Http.send(server.uri("/api"), "POST").statusCode()).isEqualTo(200);
      assertThat(Http.send(server.uri("/api"), "POST").statusCode()).isEqualTo(429);
    }
  }

  /**
   * Several policies are all-or-nothing: a request one rejects is not counted by the others. Each
   * policy costs its own permits, and each admitted response lists every policy.
   */
  @Test
  void policiesOfARouteAreAllOrNothing() throws Exception {
    Map<String, String> props =
        Props.of(
            "limiter.policy.wide.algorithm", "fixed-window",
            "limiter.policy.wide.limits", "10/1m",
            "limiter.policy.wide.permits", "2",
            "limiter.policy.narrow.algorithm", "token-bucket",
            "limiter.policy.narrow.limits", "1/1m",
            "limiter.route.both.pattern", "/both/*",
            "limiter.route.both.policies", "wide,narrow",
            "limiter.route.wide.pattern", "/wide/*",
            "limiter.route.wide.policies", "wide");
    try (TestServer server = TestServer.withFilter(props)) {
      HttpResponse<String> first =
          Http.get(server.uri("/both/x"), "X-Check-Charged", "wide,narrow,other");
      assertThat(first.statusCode()).isEqualTo(200);
      assertThat(first.body()).contains("charged=[wide,narrow]");
      assertThat(first.headers().allValues("RateLimit-Policy"))
          .containsExactly("\"wide\";q=10;w=60", "\"narrow\";q=1;w=60");
      assertThat(first.headers().allValues("RateLimit")).hasSize(2);
      assertThat(first.headers().allValues("RateLimit").get(0)).startsWith("\"wide\";r=8;");
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> rejected = Http.get(server.uri("/both/x"));
        assertThat(rejected.statusCode()).isEqualTo(429);
        assertThat(rejected.body()).contains("\"policies\":[\"narrow\"]");
      }
      // The three rejections were refunded to "wide": 10 - 2 (first) - 2 (this one) = 6 left.
      HttpResponse<String> wide = Http.get(server.uri("/wide/y"));
      assertThat(wide.headers().firstValue("RateLimit"))
          .get()
          .asString()
          .startsWith("\"wide\";r=6;");
      assertThat(server.stats().counts("wide").admitted()).isEqualTo(2);
      assertThat(server.stats().counts("narrow"))
          .isEqualTo(new RateLimitFilter.Stats.Counts(1, 3, 0, 0));
    }
  }

  /** Two routes matching one request both apply, each policy once. */
  @Test
  void overlappingRoutesAllApply() throws Exception {
    Map<String, String> props =
        Props.of(
            "limiter.policy.global.algorithm", "fixed-window",
            "limiter.policy.global.limits", "100/1m",
            "limiter.policy.login.algorithm", "fixed-window",
            "limiter.policy.login.limits", "1/1m",
            "limiter.route.all.pattern", "/*",
            "limiter.route.all.policies", "global",
            "limiter.route.login.pattern", "/login",
            "limiter.route.login.policies", "login,global");
    try (TestServer server = TestServer.withFilter(props)) {
      HttpResponse<String> login = Http.get(server.uri("/login"));
      assertThat(login.statusCode()).isEqualTo(200);
      assertThat(login.headers().allValues("RateLimit-Policy"))
          .containsExactly("\"global\";q=100;w=60", "\"login\";q=1;w=60");
      assertThat(Http.get(server.uri("/login")).statusCode()).isEqualTo(429);
      assertThat(Http.get(server.uri("/elsewhere")).statusCode()).isEqualTo(200);
      assertThat(server.stats().counts("global").admitted()).isEqualTo(2);
    }
  }
}
