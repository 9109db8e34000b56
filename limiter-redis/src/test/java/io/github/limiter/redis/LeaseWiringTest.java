package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code limiter.policy.NAME.lease=on} reaches the store the factory builds, for that policy. */
@ExtendWith(RedisExtension.class)
class LeaseWiringTest {

  @Test
  void theFactoryPutsTheConfiguredPoliciesInLeaseModeAndNoOther(RedisServer server) {
    Map<String, String> config =
        Map.of(
            "limiter.redis.url", server.url(),
            "limiter.redis.key-prefix", "wiring:" + UUID.randomUUID() + ":",
            "limiter.policy.global.algorithm", "token-bucket",
            "limiter.policy.global.limits", "100/s burst=1000",
            "limiter.policy.global.lease", "on",
            "limiter.policy.global.lease-max-slice", "50",
            "limiter.policy.login.algorithm", "fixed-window",
            "limiter.policy.login.limits", "5/m");
    Policy global = Policy.tokenBucket("global", Limit.bucket(100, Duration.ofSeconds(1), 1000));
    Policy login = Policy.fixedWindow("login", Limit.of(5, Duration.ofMinutes(1)));

    try (RateLimitStore store = new RedisStoreFactory().create(ConfigLookup.of(config))) {
      RedisStore redis = (RedisStore) store;
      assertThat(redis.leases().isLeased(global)).isTrue();
      assertThat(redis.leases().isLeased(login)).isFalse();
      assertThat(store.decide(global, "k", 1).isAllowed()).isTrue();
      assertThat(store.decide(login, "k", 1).remaining()).isEqualTo(4);
      // The lease's hash holds this node's record; the exact policy has none
      String leases = LeaseModeTest.leaseKeyOf(redis, global, "k");
      assertThat(LeaseModeTest.hash(server, leases)).containsOnlyKeys(redis.leases().node);
    }
  }

  @Test
  void aStoreWithoutLeasedPoliciesHasNoLeaseMachinery(RedisServer server) {
    try (RedisStore store = RedisStore.builder().url(server.url()).build()) {
      assertThat(store.leases()).isNull();
    }
  }
}
