package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A policy in dry run under the Jakarta REST filters lets every request pass, and logs the one line
 * the servlet filter logs for a request it would have rejected.
 */
class DryRunTest {

  @Test
  void aDryRunPolicyLetsEveryRequestPassAndSaysItWouldHaveRejected() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            lines.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger logger = Logger.getLogger(RateLimitFeature.class.getName());
    logger.addHandler(capture);
    try (TestApp app =
        TestApp.jersey(
            TestApp.resources(
                TestApp.props(
                    "limiter.policy.trial.algorithm", "fixed-window",
                    "limiter.policy.trial.limits", "1/1h",
                    "limiter.policy.trial.key", "header:X-Client",
                    "limiter.policy.trial.dry-run", "true",
                    "limiter.route.trial.pattern", "/items",
                    "limiter.route.trial.policies", "trial")))) {
      for (int i = 0; i < 3; i++) {
        assertThat(app.get("/items", "X-Client", "a").statusCode()).isEqualTo(200);
      }
    } finally {
      logger.removeHandler(capture);
    }
    assertThat(lines)
        .contains(
            "Rate limit policy 'trial' is in dry run and would have rejected a request (LIMITED);"
                + " it passed");
  }
}
