package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.live.LiveLimits;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A policy's limits change while the filter runs: its next requests see them, keys keep counts. */
class LiveLimitsFilterTest {

  private static HttpResponse<String> get(TestServer server) throws Exception {
    return Http.get(server.uri("/"), "X-Api-Key", "k");
  }

  @Test
  void aChangedLimitAppliesToTheNextRequestAndTheCountCarriesOver() throws Exception {
    try (TestServer server =
        TestServer.withFilter(
            Props.of(
                "limiter.policy.api.algorithm", "fixed-window",
                "limiter.policy.api.limits", "5/1h",
                "limiter.policy.api.key", "header:X-Api-Key",
                "limiter.route.all.pattern", "/*",
                "limiter.route.all.policies", "api"))) {
      for (int i = 0; i < 3; i++) {
        assertThat(get(server).statusCode()).isEqualTo(200);
      }
      LiveLimits live = server.runtime().live();

      live.policies().change("api", "4/1h");

      HttpResponse<String> fourth = get(server);
      assertThat(fourth.statusCode()).isEqualTo(200);
      assertThat(fourth.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=4;w=3600");
      assertThat(fourth.headers().firstValue("RateLimit").orElseThrow()).startsWith("\"api\";r=0;");
      assertThat(get(server).statusCode()).isEqualTo(429);

      live.policies().change("api", "6/1h");
      assertThat(get(server).statusCode()).isEqualTo(200);
      assertThat(get(server).statusCode()).isEqualTo(200);
      assertThat(get(server).statusCode()).isEqualTo(429);
    }
  }
}
