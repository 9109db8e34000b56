package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.store.Stores;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Redis store's keys are declared once and read by the core: every bad value is reported at
 * once, a bad policy key is never dropped, and the store gets the configuration the adapter parsed.
 */
@ExtendWith(RedisExtension.class)
class RedisSettingsTest {

  static final ClassLoader LOADER = RedisSettingsTest.class.getClassLoader();

  @Test
  void everyKeyIsDeclaredOnceWithItsLineOfDocumentation() {
    assertThat(new RedisStoreFactory().settings())
        .hasSize(26)
        .allSatisfy(
            setting -> {
              assertThat(setting.name()).startsWith(RedisStoreFactory.PREFIX);
              assertThat(
                      List.of(
                          setting.type(),
                          setting.defaultText(),
                          setting.example(),
                          setting.meaning()))
                  .as(setting.name())
                  .allSatisfy(cell -> assertThat(cell).isNotBlank().doesNotContain("|", "\n"));
            });
    assertThat(new RedisStoreFactory().keys()).hasSize(26);
  }

  @Test
  void theDispatchModeIsAutoTrueOrFalse(RedisServer server) {
    for (Map.Entry<String, DispatchMode> mode :
        Map.of(
                "auto", DispatchMode.AUTO,
                "TRUE", DispatchMode.PIPELINED,
                "false", DispatchMode.DIRECT)
            .entrySet()) {
      try (RedisStore store =
          (RedisStore)
              new RedisStoreFactory()
                  .create(
                      ConfigLookup.of(
                          Map.of(
                              "limiter.redis.url", server.url(),
                              "limiter.redis.pipeline.enabled", mode.getKey())))) {
        DirectTransport transport = (DirectTransport) store.transport();
        assertThat(transport.mode()).as(mode.getKey()).isEqualTo(mode.getValue());
        assertThat(transport.pipeline() != null)
            .as(mode.getKey() + " pipelines")
            .isEqualTo(!mode.getKey().equals("false"));
      }
    }
    try (RedisStore store =
        (RedisStore)
            new RedisStoreFactory()
                .create(ConfigLookup.of(Map.of("limiter.redis.url", server.url())))) {
      assertThat(((DirectTransport) store.transport()).mode())
          .as("the default")
          .isEqualTo(DispatchMode.AUTO);
    }
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                new RedisStoreFactory()
                    .create(
                        ConfigLookup.of(
                            Map.of(
                                "limiter.redis.url",
                                server.url(),
                                "limiter.redis.pipeline.enabled",
                                "sometimes"))));
    assertThat(e.key()).isEqualTo("limiter.redis.pipeline.enabled");
    assertThat(e.getMessage()).contains("expected auto, true or false, was 'sometimes'");
  }

  @Test
  void everyBadStoreValueIsReportedAtOnce() {
    Map<String, String> config =
        Map.of(
            "limiter.redis.url", "redis://127.0.0.1:1",
            "limiter.redis.tls", "yes",
            "limiter.redis.pool.max-total", "lots");

    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> new RedisStoreFactory().create(ConfigLookup.of(config)));

    assertThat(e.problems())
        .extracting(ConfigException::key)
        .containsExactlyInAnyOrder("limiter.redis.tls", "limiter.redis.pool.max-total");
    assertThat(e.getMessage()).contains("'yes'", "'lots'");
  }

  /** The factory used to read the policies again for lease mode and drop their problems. */
  @Test
  void aBadLeaseKeyFailsTheFactoryInsteadOfBeingDropped() {
    Map<String, String> config =
        Map.of(
            "limiter.redis.url", "redis://127.0.0.1:1",
            "limiter.policy.global.algorithm", "token-bucket",
            "limiter.policy.global.limits", "100/s",
            "limiter.policy.global.lease", "sometimes");

    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> new RedisStoreFactory().create(ConfigLookup.of(config)));

    assertThat(e.key()).isEqualTo("limiter.policy.global.lease");
    assertThat(e.getMessage()).contains("'sometimes'");
  }

  @Test
  void theStoreGetsTheParsedConfiguration(RedisServer server) {
    ConfigLookup lookup =
        ConfigLookup.of(
            Map.of(
                "limiter.store", "redis",
                "limiter.redis.url", server.url(),
                "limiter.redis.key-prefix", "settings:" + UUID.randomUUID() + ":",
                "limiter.policy.global.algorithm", "fixed-window",
                "limiter.policy.global.limits", "100/s",
                "limiter.policy.global.lease", "on"));
    LimiterConfig config = LimiterConfig.from(lookup);

    try (RateLimitStore store = Stores.create(config, lookup, LOADER)) {
      Policy global = Policy.fixedWindow("global", Limit.of(100, Duration.ofSeconds(1)));
      assertThat(((RedisStore) store).leases().isLeased(global)).isTrue();
    }
  }
}
