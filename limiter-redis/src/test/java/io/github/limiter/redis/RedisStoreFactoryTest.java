package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.store.Stores;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.spi.StoreFactory;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(RedisExtension.class)
class RedisStoreFactoryTest {

  @Test
  void theServiceLoaderFindsTheRedisFactory() {
    assertThat(ServiceLoader.load(StoreFactory.class).stream().map(ServiceLoader.Provider::get))
        .anySatisfy(
            f -> {
              assertThat(f.name()).isEqualTo("redis");
              assertThat(f).isInstanceOf(RedisStoreFactory.class);
            });
  }

  @Test
  void aConfiguredStoreDecidesWithServerTime(RedisServer server) {
    Map<String, String> config = new HashMap<>();
    config.put("limiter.redis.url", server.url());
    config.put("limiter.redis.key-prefix", "factory:" + UUID.randomUUID() + ":");
    config.put("limiter.redis.connect-timeout", "1s");
    config.put("limiter.redis.socket-timeout", "300ms");
    config.put("limiter.redis.decision-timeout", "400ms");
    config.put("limiter.redis.pool.max-total", "4");
    config.put("limiter.redis.local-nodes", "3");
    config.put("limiter.redis.breaker.failure-threshold", "2");
    config.put("limiter.redis.breaker.open-duration", "PT2S");
    config.put("limiter.redis.tls", "false");
    try (RateLimitStore store = new RedisStoreFactory().create(ConfigLookup.of(config))) {
      assertThat(store.timeSource()).isEqualTo(RateLimitStore.TimeSource.SERVER);
      Policy policy = Policy.fixedWindow("factory", Limit.of(2, Duration.ofHours(1)));
      assertThat(store.decide(policy, "k", 1).isVerified()).isTrue();
      assertThat(store.decide(policy, "k", 1).isAllowed()).isTrue();
      Decision third = store.decide(policy, "k", 1);
      assertThat(third.outcome()).isEqualTo(Decision.Outcome.LIMITED);
      assertThat(third.retryAfter())
          .get()
          .satisfies(d -> assertThat(d).isPositive().isLessThanOrEqualTo(Duration.ofHours(1)));
      assertThat(((RedisStore) store).budgetNanos()).isEqualTo(Duration.ofMillis(400).toNanos());
      assertThat(((RedisStore) store).keyPrefix()).startsWith("factory:");
      assertThat(store.health().up()).isTrue();
    }
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "limiter.redis.url|http://127.0.0.1:1",
        "limiter.redis.url|redis://127.0.0.1:1/zero",
        "limiter.redis.url|redis://:1",
        "limiter.redis.cluster-nodes|127.0.0.1",
        "limiter.redis.cluster-nodes|127.0.0.1:99999",
        "limiter.redis.cluster-nodes|127.0.0.1:x",
        "limiter.redis.tls|yes",
        "limiter.redis.key-prefix|app{1}:",
        "limiter.redis.connect-timeout|fast",
        "limiter.redis.socket-timeout|0s",
        "limiter.redis.decision-timeout|10 ms",
        "limiter.redis.decision-timeout|500us",
        "limiter.redis.pool.max-total|0",
        "limiter.redis.pool.max-total|lots",
        "limiter.redis.pool.max-total|4294967296",
        "limiter.redis.pool.idle-check-interval|0ms",
        "limiter.redis.pool.idle-check-interval|often",
        "limiter.redis.local-nodes|-2",
        "limiter.redis.breaker.failure-threshold|1.5",
        "limiter.redis.breaker.open-duration|1 sec",
        "limiter.redis.tls.truststore|/no/such/file.p12",
        "limiter.redis.pipeline.enabled|sometimes",
        "limiter.redis.pipeline.enabled|on",
        "limiter.redis.pipeline.max-batch|0",
        "limiter.redis.pipeline.max-batch|many",
        "limiter.redis.concurrency-hold|500ms",
        "limiter.redis.concurrency-hold|2h",
        "limiter.redis.concurrency-hold|soon",
      })
  void aBadValueNamesTheKeyAndTheValue(String key, String value) {
    Map<String, String> config = new HashMap<>();
    if (!key.equals("limiter.redis.url") && !key.equals("limiter.redis.cluster-nodes")) {
      config.put("limiter.redis.url", "redis://127.0.0.1:1");
    }
    config.put(key, value);
    assertThatThrownBy(() -> new RedisStoreFactory().create(ConfigLookup.of(config)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(key + ": ")
        .hasMessageContaining(value)
        .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
  }

  /**
   * A misspelt key would leave its default (here a 250 ms budget instead of 50 ms) in place: it
   * fails.
   */
  @Test
  void aMisspeltKeyFailsNamingTheKeysTheStoreReads() {
    Map<String, String> config =
        Map.of("limiter.redis.url", "redis://127.0.0.1:1", "limiter.redis.decision-timout", "50ms");
    assertThatThrownBy(
            () -> Stores.create("redis", ConfigLookup.of(config), getClass().getClassLoader()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("limiter.redis.decision-timout: unknown key; store 'redis' reads [")
        .hasMessageContaining("limiter.redis.decision-timeout")
        .hasMessageContaining("'50ms'");
    // Every key the factory declares is one it reads: docs/configuration.md's Redis table, whole.
    assertThat(new RedisStoreFactory().keys())
        .hasSize(26)
        .allSatisfy(key -> assertThat(key).startsWith("limiter.redis."));
  }

  @Test
  void aUrlOrClusterNodesIsRequiredButNotBoth() {
    assertThatThrownBy(() -> new RedisStoreFactory().create(ConfigLookup.of(Map.of())))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("limiter.redis.url: ");
    assertThatThrownBy(
            () ->
                new RedisStoreFactory()
                    .create(
                        ConfigLookup.of(
                            Map.of(
                                "limiter.redis.url",
                                "redis://127.0.0.1:1",
                                "limiter.redis.cluster-nodes",
                                "127.0.0.1:2"))))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("limiter.redis.cluster-nodes: ")
        .hasMessageContaining("127.0.0.1:2");
  }

  @Test
  void aStandaloneUrlAndClusterNodesTogetherAreRejected() {
    assertThatThrownBy(
            () -> RedisStore.builder().clusterNodes("127.0.0.1:7000").url("redis://h:1/2").build())
        .isInstanceOf(IllegalStateException.class);
  }
}
