package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Outbound policies are first-class parts of the application's runtime: they decide through its
 * live limits, so that a change made through them (the admin API's) holds for the next call, and
 * the readiness check names them beside the inbound ones.
 */
class OutboundInRuntimeTest {

  private static final URI PARTNER = URI.create("https://partner.example/v1/quote");

  private static Map<String, String> config() {
    Map<String, String> config = new HashMap<>();
    config.put("limiter.policy.api.algorithm", "fixed-window");
    config.put("limiter.policy.api.limits", "10/s");
    config.put("limiter.outbound.partner.algorithm", "sliding-window-log");
    config.put("limiter.outbound.partner.limits", "5/1m");
    config.put("limiter.outbound.partner.max-wait", "0s");
    return config;
  }

  private static LimiterRuntime runtime(Map<String, String> config) {
    ConfigLookup lookup = ConfigLookup.of(config);
    return LimiterRuntime.over(
        InMemoryStore.create(),
        LimiterConfig.from(lookup),
        lookup,
        OutboundInRuntimeTest.class.getClassLoader(),
        Recorder.NOOP);
  }

  @Test
  void anOutboundPolicyIsLiveFromTheStartAndAChangeHoldsForTheNextCall() {
    try (LimiterRuntime runtime = runtime(config())) {
      // Given the application's outbound policies, as the runtime's part
      Outbound outbound = runtime.part(Outbound.class, Outbound::over);
      LiveLimits live = runtime.live();
      assertThat(live.policies().version("partner"))
          .hasValueSatisfying(v -> assertThat(v.number()).isZero());
      OutboundLimiter partner = outbound.policy("partner").orElseThrow();
      partner.begin(PARTNER, null).end(200, name -> null);

      // When an operator lowers its limit to 2 a minute
      live.policies().change("partner", "2/1m");

      // Then the next call is the last one admitted: the first one counts under the new version
      partner.begin(PARTNER, null).end(200, name -> null);
      assertThatThrownBy(() -> partner.begin(PARTNER, null))
          .isInstanceOf(OutboundLimitException.class);
      // And the readiness check names the outbound policy with the store that decides it
      assertThat(runtime.readiness().sections()).containsEntry("outbound", Set.of("partner"));
      assertThat(runtime.part(Outbound.class, Outbound::over)).isSameAs(outbound);
    }
  }

  @Test
  void anOutboundPolicyNamedLikeAnInboundOneFailsNamingTheKey() {
    Map<String, String> config = config();
    config.put("limiter.outbound.api.algorithm", "fixed-window");
    config.put("limiter.outbound.api.limits", "1/s");

    assertThatThrownBy(() -> runtime(config))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.outbound.api.limits")
        .hasMessageContaining("limiter.policy.api");
  }
}
