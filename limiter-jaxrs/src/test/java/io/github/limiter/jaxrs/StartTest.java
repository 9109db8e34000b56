package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.Limiter;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the filters read at the start of the application: a bad setting fails the start of the
 * Jersey application, naming the key and the value, and no request is served unlimited.
 */
class StartTest {

  private static final Map<String, String> GOOD =
      TestApp.props(
          "limiter.policy.api.algorithm", "fixed-window",
          "limiter.policy.api.limits", "1/1h",
          "limiter.policy.api.key", "header:X-Client",
          "limiter.route.api.pattern", "/items",
          "limiter.route.api.policies", "api");

  @Test
  void aBadLimitFailsTheStartNamingTheKeyAndTheValue() {
    Map<String, String> bad = TestApp.props("limiter.policy.api.limits", "lots");
    assertThatThrownBy(() -> TestApp.jersey(TestApp.resources(with(bad))))
        .hasStackTraceContaining("limiter.policy.api.limits")
        .hasStackTraceContaining("lots");
  }

  @Test
  void aRouteToAnUnknownPolicyFailsTheStart() {
    Map<String, String> bad = TestApp.props("limiter.route.api.policies", "nowhere");
    assertThatThrownBy(() -> TestApp.jersey(TestApp.resources(with(bad))))
        .hasStackTraceContaining("limiter.route.api.policies")
        .hasStackTraceContaining("nowhere");
  }

  @Test
  void anUnknownResolverFailsTheStart() {
    Map<String, String> bad = TestApp.props("limiter.policy.api.key", "resolver:tenant");
    assertThatThrownBy(() -> TestApp.jersey(TestApp.resources(with(bad))))
        .hasStackTraceContaining("limiter.policy.api.key")
        .hasStackTraceContaining("tenant");
  }

  @Test
  void aReadyConfigurationIsCheckedWhenTheFeatureIsMade() {
    Map<String, String> bad = with(TestApp.props("limiter.policy.api.algorithm", "magic"));
    try (Limiter limiter = Limiter.of(InMemoryStore.create())) {
      assertThatThrownBy(() -> new RateLimitFeature(ConfigLookup.of(bad), limiter))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("limiter.policy.api.algorithm")
          .hasMessageContaining("magic");
    }
  }

  @Test
  void aGoodConfigurationLimits() throws Exception {
    try (TestApp app = TestApp.jersey(TestApp.resources(GOOD))) {
      assertThat(app.get("/items", "X-Client", "a").statusCode()).isEqualTo(200);
      assertThat(app.get("/items", "X-Client", "a").statusCode()).isEqualTo(429);
    }
  }

  private static Map<String, String> with(Map<String, String> change) {
    Map<String, String> config = new java.util.LinkedHashMap<>(GOOD);
    config.putAll(change);
    return config;
  }
}
