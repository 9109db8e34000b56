package io.github.limiter.it.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bad setting fails the deployment on the selected runtime ({@link ConformanceRuntime#selected}),
 * not the first request: the application is not served, and the log names the key and the value.
 */
class BadSettingConformanceIT {

  private static final String KEY = "limiter.policy.conformance-route.limits";
  private static final String VALUE = "3/fortnight";

  @Test
  void aBadSettingFailsTheDeploymentNamingTheKeyAndTheValue() {
    try (ServerNode node = ConformanceRuntime.selected().start("bad-setting", Map.of(KEY, VALUE))) {
      node.awaitSettled(Duration.ofMinutes(4));

      if (node.isAlive()) {
        int status = ServerNode.status(node.app("api/route"));
        assertThat(status)
            .as(
                "GET %s: the deployment should have failed, so nothing should be served there (a"
                    + " 200 means the application runs, without its rate limits)",
                node.app("api/route"))
            .isEqualTo(404);
      }
      String log = node.logText();
      assertThat(log).as("the log of %s", node).contains(KEY).contains("'" + VALUE + "'");
    }
  }
}
