package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.RateLimitStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code limiter.redis.region.*} settings (docs/multi-region.md): checks at start, and the
 * bound.
 */
@ExtendWith(RedisExtension.class)
class RegionSettingsTest {

  static Map<String, String> config(String url) {
    Map<String, String> config = new HashMap<>();
    config.put("limiter.redis.url", url);
    config.put("limiter.redis.key-prefix", "settings:" + UUID.randomUUID() + ":");
    config.put("limiter.policy.api.algorithm", "token-bucket");
    config.put("limiter.policy.api.limits", "5000/s burst=10000");
    config.put("limiter.policy.api.key", "constant");
    config.put("limiter.policy.api.lease", "on");
    config.put("limiter.policy.api.lease-max-slice", "500");
    config.put("limiter.policy.log.algorithm", "sliding-window-log");
    config.put("limiter.policy.log.limits", "10/s");
    config.put("limiter.redis.region", "eu-west");
    config.put("limiter.redis.region.policies", "api");
    return config;
  }

  @Test
  void aGlobalPolicyLogsItsGuaranteeAndBoundAtStart(RedisServer server) {
    Map<String, String> config = config(server.url());
    config.put("limiter.redis.region.failure", "allow 100/m");
    try (StoreLog log = new StoreLog();
        RateLimitStore store = new RedisStoreFactory().create(ConfigLookup.of(config))) {
      assertThat(((RedisStore) store).leases().regions.isGlobal("api")).isTrue();
      assertThat(log.records())
          .filteredOn(r -> r.getLevel() == Level.INFO)
          .extracting(r -> r.getMessage())
          .containsExactly(
              "Global policy 'api' in region 'eu-west': admits never more than exact mode on one"
                  + " Redis, plus allow 100 per 60000 ms for each region cut off from the global"
                  + " Redis; at most regions × 500 + nodes × 500 less (regional slice = node slice"
                  + " = min(lease-max-slice, capacity) = min(500, 10000), the regional one also at"
                  + " most capacity ÷ active regions); region-failure=allow 100 per 60000 ms");
    }
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "limiter.redis.region.policies|nope|no policy named 'nope'",
        "limiter.redis.region.policies|log|policy 'log' is sliding-window-log",
        "limiter.redis.region.failure|maybe|expected refuse or allow",
        "limiter.redis.region.failure|allow lots|allow lots",
        "limiter.redis.region|eu west|region must match",
        "limiter.redis.region.global-url|http://x:1|http://x:1",
        "limiter.redis.region.global-timeout|soon|soon",
      })
  void aBadValueFailsTheStartNamingTheKeyAndTheValue(String key, String value, String says) {
    Map<String, String> config = config("redis://127.0.0.1:1");
    config.put(key, value);
    assertThatThrownBy(() -> new RedisStoreFactory().create(ConfigLookup.of(config)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(key + ": ")
        .hasMessageContaining(value)
        .hasMessageContaining(says);
  }

  @Test
  void regionSettingsWithoutARegionFail() {
    Map<String, String> config = config("redis://127.0.0.1:1");
    config.remove("limiter.redis.region");
    assertThatThrownBy(() -> new RedisStoreFactory().create(ConfigLookup.of(config)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("limiter.redis.region.policies: needs limiter.redis.region");
  }

  @Test
  void aRegionWithoutGlobalPoliciesFails() {
    Map<String, String> config = config("redis://127.0.0.1:1");
    config.remove("limiter.redis.region.policies");
    assertThatThrownBy(() -> new RedisStoreFactory().create(ConfigLookup.of(config)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "limiter.redis.region.policies: expected the global policies' names");
  }
}
