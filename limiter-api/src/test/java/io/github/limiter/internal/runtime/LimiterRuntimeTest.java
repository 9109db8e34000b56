package io.github.limiter.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.Setting;
import io.github.limiter.internal.config.SettingsSection;
import io.github.limiter.internal.live.ConfigRefresh;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The one runtime of an application: what it refreshes, and what the readiness check reads. */
class LimiterRuntimeTest {

  private final Map<String, String> settings =
      new HashMap<>(
          Map.of(
              "limiter.policy.api.algorithm", "fixed-window",
              "limiter.policy.api.limits", "10/s",
              "limiter.upstream.partner.limits", "5/s"));

  /**
   * A module's section, as limiter-outbound declares {@code limiter.outbound.*}: here one
   * fail-closed token-bucket policy, partner, whose limits are {@code
   * limiter.upstream.partner.limits}.
   */
  private static final SettingsSection UPSTREAM =
      new SettingsSection() {
        @Override
        public String name() {
          return "upstream";
        }

        @Override
        public List<Setting<?>> settings() {
          return List.of();
        }

        @Override
        public Collection<Policy> policies(ConfigLookup config) {
          return config
              .get("limiter.upstream.partner.limits")
              .map(
                  limits ->
                      List.of(
                          new Policy(
                              "partner",
                              Algorithm.TOKEN_BUCKET,
                              Limit.parseAll(limits),
                              FailureMode.FAIL_CLOSED)))
              .orElse(List.of());
        }
      };

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
        Recorder.NOOP,
        List.of(UPSTREAM));
  }

  @Test
  void theConfigRefreshChangesASectionsPolicyAsAnInboundOne() {
    try (LimiterRuntime runtime = runtime()) {
      // Given both policies bound, as their adapters bind them
      runtime.live().store().bind(runtime.config().policy("api").orElseThrow().policy());
      runtime.live().store().bind(runtime.sections().get("upstream").get(0));
      ConfigRefresh refresh =
          new ConfigRefresh(
              runtime.live().policies(),
              LimiterRuntime.configured(runtime.config(), runtime.sections()),
              () -> {
                LimiterConfig read = LimiterConfig.from(lookup);
                return LimiterRuntime.configured(
                    read, LimiterRuntime.sections(read, lookup, List.of(UPSTREAM)));
              });

      // When the configuration of both changes, and the refresh reads it
      settings.put("limiter.policy.api.limits", "20/s");
      settings.put("limiter.upstream.partner.limits", "2/s");

      // Then both are at their next version, with the new limits
      assertThat(refresh.run()).isEqualTo(2);
      Policy partner = runtime.live().policies().version("partner").orElseThrow().policy();
      assertThat(partner.limits()).containsExactly(Limit.parse("2/s"));
      assertThat(runtime.live().policies().version("api").orElseThrow().number()).isEqualTo(1);
    }
  }

  @Test
  void theReadinessNamesTheSectionsPoliciesAndCountsTheirFailClosedOnes() {
    try (LimiterRuntime runtime = runtime()) {
      LimiterRuntime.Readiness readiness = runtime.readiness();

      assertThat(readiness.name()).isEqualTo("memory");
      assertThat(readiness.sections()).isEqualTo(Map.of("upstream", Set.of("partner")));
      assertThat(readiness.failClosed()).containsExactly("partner");
    }
  }
}
