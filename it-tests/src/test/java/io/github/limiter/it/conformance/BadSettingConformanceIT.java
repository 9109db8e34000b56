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

  @Test
  void aBadSettingFailsTheDeploymentNamingTheKeyAndTheValue() {
    String key = "limiter.policy.conformance-route.limits";
    String value = "3/fortnight";

    String log = failedStart("bad-setting", Map.of(key, value));

    assertThat(log).contains(key).contains("'" + value + "'");
  }

  /**
   * A resolver's name is what its instance says, so only a check with the application's beans sees
   * it (the portable extension's at validation, or the start's on Quarkus): the {@code @Limited}
   * method's policy takes its cost from a resolver that no bean or service provides.
   */
  @Test
  void aKeyResolverThatNoBeanProvidesFailsTheStartNamingTheKeyAndTheValue() {
    String log =
        failedStart(
            "bad-resolver", Map.of("limiter.policy.conformance-limited.cost", "resolver:nobody"));

    assertThat(log)
        .contains("limiter.policy.conformance-limited.cost=resolver:nobody")
        .contains("no key resolver named 'nobody'");
  }

  /** Starts a node with {@code settings}, checks that it serves nothing, and returns its log. */
  private static String failedStart(String name, Map<String, String> settings) {
    try (ServerNode node = ConformanceRuntime.selected().start(name, settings)) {
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
      return node.logText();
    }
  }
}
