package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.RedisCluster;
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
  void leaseModeWorksOnRedisClusterWithEveryKeyOfALeaseInOneSlot(RedisCluster cluster) {
    // Given two nodes on a Redis Cluster sharing a window of 100, leased in slices of at most 10
    Policy policy =
        Policy.fixedWindow(
            "cluster-lease", Limit.of(100, Duration.ofDays(365))); // no boundary in the test
    String prefix = "cluster-lease:" + UUID.randomUUID() + ":";
    RedisStore[] nodes = new RedisStore[2];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] =
          RedisStore.builder()
              .clusterNodes(cluster.seedList())
              .keyPrefix(prefix)
              .decisionTimeout(Duration.ofSeconds(2))
              .socketTimeout(Duration.ofSeconds(2))
              .lease(policy.name(), Duration.ofSeconds(1), Duration.ofSeconds(10), 10, 0.25)
              .build();
    }
    try {
      // When they take 150 requests in turn
      int admitted = 0;
      for (int i = 0; i < 150; i++) {
        admitted += nodes[i % 2].decide(policy, "k", 1).isAllowed() ? 1 : 0;
      }

      // Then the window admits 100 at most, and nearly all of them: the nodes' slices ran out
      // only as the window did
      assertThat(admitted).isBetween(100 - 2 * 13, 100);
    } finally {
      for (RedisStore node : nodes) {
        node.close();
      }
    }
  }

  @Test
  void aStoreWithoutLeasedPoliciesHasNoLeaseMachinery(RedisServer server) {
    try (RedisStore store = RedisStore.builder().url(server.url()).build()) {
      assertThat(store.leases()).isNull();
    }
  }
}
