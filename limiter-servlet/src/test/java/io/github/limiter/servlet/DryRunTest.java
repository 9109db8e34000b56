package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class DryRunTest {

  /**
   * Decisions are made and sent as headers, would-be rejections counted and logged once, and every
   * request passes.
   */
  @Test
  void wouldBeRejectionsPassAreCountedAndLoggedOnce() throws Exception {
    Map<String, String> props =
        Props.of(
            "limiter.policy.trial.algorithm", "fixed-window",
            "limiter.policy.trial.limits", "2/1m",
            "limiter.policy.trial.dry-run", "true",
            "limiter.route.all.pattern", "/*",
            "limiter.route.all.policies", "trial");
    Logger logger = Logger.getLogger(RateLimitFilter.class.getName());
    List<LogRecord> records = new ArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            synchronized (records) {
              records.add(record);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(capture);
    try (TestServer server = TestServer.withFilter(props)) {
      for (int i = 0; i < 30; i++) {
        HttpResponse<String> response = Http.get(server.uri("/x"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("RateLimit-Policy"))
            .hasValue("\"trial\";q=2;w=60");
        assertThat(response.headers().firstValue("RateLimit"))
            .get()
            .asString()
            .startsWith("\"trial\";r=" + Math.max(0, 1 - i) + ";");
      }
      assertThat(server.stats().counts("trial"))
          .isEqualTo(new RateLimitFilter.Stats.Counts(2, 0, 28, 0));
    } finally {
      logger.removeHandler(capture);
    }
    List<LogRecord> dryRun =
        records.stream().filter(r -> r.getMessage().contains("dry run")).toList();
    assertThat(dryRun).hasSize(1);
    assertThat(dryRun.get(0).getMessage()).contains("'trial'").doesNotContain("127.0.0.1");
  }

  /**
   * An enforcing policy still rejects next to a dry-run one, and the dry-run one's rejection does
   * not block.
   */
  @Test
  void dryRunNextToAnEnforcingPolicy() throws Exception {
    Map<String, String> props =
        Props.of(
            "limiter.policy.trial.algorithm", "fixed-window",
            "limiter.policy.trial.limits", "1/1m",
            "limiter.policy.trial.dry-run", "true",
            "limiter.policy.real.algorithm", "fixed-window",
            "limiter.policy.real.limits", "3/1m",
            "limiter.route.all.pattern", "/*",
            "limiter.route.all.policies", "trial,real");
    try (TestServer server = TestServer.withFilter(props)) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> response = Http.get(server.uri("/x"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().allValues("RateLimit-Policy")).hasSize(2);
      }
      HttpResponse<String> rejected = Http.get(server.uri("/x"));
      assertThat(rejected.statusCode()).isEqualTo(429);
      assertThat(rejected.body()).contains("\"policies\":[\"real\"]");
      assertThat(server.stats().counts("trial").dryRunRejected()).isEqualTo(3);
      assertThat(server.stats().counts("real"))
          .isEqualTo(new RateLimitFilter.Stats.Counts(3, 1, 0, 0));
    }
  }
}
