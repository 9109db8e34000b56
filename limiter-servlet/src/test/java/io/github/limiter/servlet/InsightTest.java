package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.insight.Insight;
import io.github.limiter.internal.insight.KeyCount;
import io.github.limiter.internal.insight.TopKeysView;
import io.github.limiter.internal.insight.TrialView;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The filter feeds the top keys and shadow trials from its admission step. */
class InsightTest {

  private static final Map<String, String> PROPS =
      Props.of(
          "limiter.policy.api.algorithm", "sliding-window-log",
          "limiter.policy.api.limits", "2/1m",
          "limiter.policy.api.key", "header:X-Key",
          "limiter.route.all.pattern", "/*",
          "limiter.route.all.policies", "api");

  @Test
  void theFilterCountsTopKeysWhenEnabledAndTriesCandidateLimitsInShadow() throws Exception {
    ConfigLookup config = ConfigLookup.of(Props.with(PROPS, "limiter.top-keys.enabled", "true"));
    try (Limiter limiter = Limiter.of(InMemoryStore.create())) {
      RateLimitFilter filter = new RateLimitFilter(config, limiter);
      try (TestServer server = TestServer.start(TestServer.context(TestServer.filter(filter)))) {
        // Given a trial of 1 a minute, while 2 a minute decides
        Insight insight = filter.insight();
        insight
            .trials()
            .start(
                LimiterConfig.from(config).policy("api").orElseThrow().policy(),
                Limit.parseAll("1/1m"),
                Duration.ofHours(1));

        // When one key sends 5 requests and another 1
        for (int i = 0; i < 5; i++) {
          Http.get(server.uri("/x"), "X-Key", "busy");
        }
        assertThat(Http.get(server.uri("/x"), "X-Key", "quiet").statusCode()).isEqualTo(200);

        // Then the top keys show the busy key first, with the 3 rejections the real limit made
        TopKeysView top = insight.topKeys().orElseThrow().view("api");
        assertThat(top.byRequests())
            .containsExactly(new KeyCount("h:busy", 5, 0), new KeyCount("h:quiet", 1, 0));
        assertThat(top.byRejections()).containsExactly(new KeyCount("h:busy", 3, 0));
        // And the trial would have rejected 4 of busy's requests, and none of quiet's
        TrialView trial = insight.trials().views().get(0);
        assertThat(trial.requests()).isEqualTo(6);
        assertThat(trial.rejected()).isEqualTo(3);
        assertThat(trial.wouldReject()).isEqualTo(4);
        assertThat(trial.wouldRejectKeys()).containsExactly(new KeyCount("h:busy", 4, 0));
        assertThat(filter.stats().counts("api").rejected()).isEqualTo(3);
      }
    }
  }

  @Test
  void topKeysAreOffByDefault() throws Exception {
    try (Limiter limiter = Limiter.of(InMemoryStore.create())) {
      RateLimitFilter filter = new RateLimitFilter(ConfigLookup.of(PROPS), limiter);
      try (TestServer server = TestServer.start(TestServer.context(TestServer.filter(filter)))) {
        Http.get(server.uri("/x"), "X-Key", "busy");

        assertThat(filter.insight().topKeys()).isEmpty();
      }
    }
  }
}
