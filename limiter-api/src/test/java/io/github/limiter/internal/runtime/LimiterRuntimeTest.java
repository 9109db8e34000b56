package io.github.limiter.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.live.ConfigRefresh;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The one runtime of an application: what it refreshes, and what the readiness check reads. */
class LimiterRuntimeTest {

  private final Map<String, String> settings =
      new HashMap<>(
          Map.of(
              "limiter.policy.api.algorithm", "fixed-window",
              "limiter.policy.api.limits", "10/s",
              "limiter.outbound.partner.algorithm", "token-bucket",
              "limiter.outbound.partner.limits", "5/s",
              "limiter.outbound.partner.failure", "fail-closed"));

  /** The settings as they are when read: the refresh reads them again. */
  private final ConfigLookup lookup =
      new ConfigLookup() {
        @Override
        public Optional<String> get(String key) {
          return Optional.ofNullable(settings.get(key));
        }

        @Override
        public Iterable<String> names() {
          return new TreeSet<>(settings.keySet());
        }
      };

  private LimiterRuntime runtime() {
    return LimiterRuntime.over(
        InMemoryStore.create(),
        LimiterConfig.from(lookup),
        lookup,
        getClass().getClassLoader(),
        Recorder.NOOP);
  }

  @Test
  void theConfigRefreshChangesAnOutboundPolicyAsAnInboundOne() {
    try (LimiterRuntime runtime = runtime()) {
      // Given both policies bound, as their adapters bind them
      runtime.live().store().bind(runtime.config().policy("api").orElseThrow().policy());
      runtime.live().store().bind(runtime.outbound().iterator().next().policy());
      ConfigRefresh refresh =
          new ConfigRefresh(
              runtime.live().policies(),
              LimiterRuntime.configured(runtime.config(), lookup),
              () -> LimiterRuntime.configured(LimiterConfig.from(lookup), lookup));

      // When the configuration of both changes, and the refresh reads it
      settings.put("limiter.policy.api.limits", "20/s");
      settings.put("limiter.outbound.partner.limits", "2/s");

      // Then both are at their next version, with the new limits
      assertThat(refresh.run()).isEqualTo(2);
      Policy partner = runtime.live().policies().version("partner").orElseThrow().policy();
      assertThat(partner.limits()).containsExactly(Limit.parse("2/s"));
      assertThat(runtime.live().policies().version("api").orElseThrow().number()).isEqualTo(1);
    }
  }

  @Test
  void theReadinessNamesTheOutboundPoliciesAndCountsTheirFailClosedOnes() {
    try (LimiterRuntime runtime = runtime()) {
      LimiterRuntime.Readiness readiness = runtime.readiness();

      assertThat(readiness.name()).isEqualTo("memory");
      assertThat(readiness.outbound()).containsExactly("partner");
      assertThat(readiness.failClosed()).containsExactly("partner");
    }
  }
}
