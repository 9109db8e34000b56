package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/**
 * Concurrency permits held per node under holds: a node that crashes holds its permits at most one
 * hold TTL after its last renewal, a live node keeps them as long as it renews, and a node that
 * closes gives them back at once. Two stores on one caller clock are two nodes; time is the
 * clock's, and only the test of the renewing thread waits, for Redis's own clock.
 */
@ExtendWith(RedisExtension.class)
class ConcurrencyHoldTest {

  private static final Duration HOLD = Duration.ofSeconds(30);
  private static final Policy EXPORT =
      Policy.concurrency("export", 2, Duration.ofSeconds(1))
          .withFailureMode(FailureMode.FAIL_CLOSED);

  /** Builders of two nodes on one server or cluster, sharing a key prefix. */
  private static Function<ManualClock, RedisStore> nodes(RedisStoreBuilder base) {
    String prefix = "cc:" + UUID.randomUUID() + ":";
    return clock ->
        base.keyPrefix(prefix)
            .callerClock(clock)
            .concurrencyHold(HOLD)
            .decisionTimeout(Duration.ofSeconds(2))
            .build();
  }

  @Test
  void aCrashedNodesPermitsAreFreeOneHoldAfterItsLastRenewal(RedisServer server) {
    crashBound(nodes(RedisStore.builder().url(server.url())));
  }

  @Test
  void aCrashedNodesPermitsAreFreeOneHoldAfterItsLastRenewalOnACluster(RedisCluster cluster) {
    crashBound(nodes(RedisStore.builder().clusterNodes(cluster.seedList()).poolMaxTotal(4)));
  }

  private static void crashBound(Function<ManualClock, RedisStore> node) {
    ManualClock clock = ManualClock.random(17);
    try (RedisStore a = node.apply(clock);
        RedisStore b = node.apply(clock)) {
      // Given node a holds both permits of a key, and renews its hold 10 s later
      assertThat(a.decide(EXPORT, "acme", 2).isAllowed()).isTrue();
      Decision refused = b.decide(EXPORT, "acme", 1);
      assertThat(refused.outcome()).isEqualTo(Decision.Outcome.LIMITED);
      assertThat(refused.retryAfter()).hasValue(Duration.ofSeconds(1));
      clock.advance(Duration.ofSeconds(10));
      a.holdings().renewAll();

      // When a crashes: it renews no more and releases nothing
      a.crash();

      // Then b is refused until one hold after that renewal, and admitted from then on
      clock.advance(HOLD.minusMillis(1));
      assertThat(b.decide(EXPORT, "acme", 1).isAllowed()).isFalse();
      clock.advance(Duration.ofMillis(1));
      assertThat(b.decide(EXPORT, "acme", 2).isAllowed()).isTrue();
      assertThat(b.decide(EXPORT, "acme", 1).isAllowed()).isFalse();
    }
  }

  @Test
  void aLiveNodeKeepsItsPermitsAsLongAsItRenewsAndAClosedOneGivesThemBack(RedisServer server) {
    Function<ManualClock, RedisStore> node = nodes(RedisStore.builder().url(server.url()));
    ManualClock clock = ManualClock.nearMaxValue();
    try (RedisStore b = node.apply(clock)) {
      RedisStore a = node.apply(clock);
      // Given a holds one permit and renews it every 10 s for two minutes
      assertThat(a.decide(EXPORT, "initech", 1).isAllowed()).isTrue();
      for (int i = 0; i < 12; i++) {
        clock.advance(Duration.ofSeconds(10));
        a.holdings().renewAll();
      }
      // Then b still finds only one permit free
      assertThat(b.decide(EXPORT, "initech", 1).isAllowed()).isTrue();
      assertThat(b.decide(EXPORT, "initech", 1).isAllowed()).isFalse();

      // When a closes with its permit still held, it gives it back at once
      a.close();
      assertThat(b.decide(EXPORT, "initech", 1).isAllowed()).isTrue();
      assertThat(b.decide(EXPORT, "initech", 1).isAllowed()).isFalse();

      // And a release by b is of b's own permits only: two, then none
      b.refund(EXPORT, "initech", 5);
      assertThat(b.decide(EXPORT, "initech", 2).isAllowed()).isTrue();
    }
  }

  @Test
  void theRenewingThreadReStampsHoldsAndStopsAtClose(RedisServer server) {
    // Given a node on server time with a 1 s hold, which it renews every 333 ms
    try (Jedis jedis = new Jedis(URI.create(server.url()))) {
      RedisStore a =
          RedisStore.builder()
              .url(server.url())
              .keyPrefix("cc-renew:" + UUID.randomUUID() + ":")
              .concurrencyHold(Duration.ofSeconds(1))
              .build();
      assertThat(a.decide(EXPORT, "k", 1).isAllowed()).isTrue();
      String key = a.redisKey(EXPORT, "k", 0);
      String first = jedis.hget(key, a.node());

      // Then within two seconds the hold is re-stamped with a later end, and the key outlives its
      // first hold
      Await.within(Duration.ofSeconds(2), () -> !first.equals(jedis.hget(key, a.node())));
      String renewed = jedis.hget(key, a.node());
      assertThat(renewed).isNotEqualTo(first);
      assertThat(Long.parseLong(renewed.split(" ")[1]))
          .isGreaterThan(Long.parseLong(first.split(" ")[1]));
      long firstEnd = Long.parseLong(first.split(" ")[1]);
      Await.until(
          "Redis's clock past the first hold's end",
          Duration.ofSeconds(3),
          () -> serverMicros(jedis) > firstEnd + 200_000);
      assertThat(jedis.hget(key, a.node())).startsWith("1 ");

      // And at close the permit is given back and the thread ends
      a.close();
      assertThat(jedis.exists(key)).isFalse();
      Await.within(Duration.ofSeconds(2), () -> renewers() == 0);
      assertThat(renewers()).isZero();
    }
  }

  /**
   * The server's TIME as the scripts read it: microseconds since {@link RedisStore#EPOCH_SECONDS}.
   */
  private static long serverMicros(Jedis jedis) {
    List<String> time = jedis.time();
    return (Long.parseLong(time.get(0)) - RedisStore.EPOCH_SECONDS) * 1_000_000L
        + Long.parseLong(time.get(1));
  }

  private static long renewers() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("limiter-redis-concurrency-renew") && t.isAlive())
        .count();
  }

  @Test
  void whileRedisIsDownALocalPolicyHoldsAndReleasesItsPermitsLocally() {
    // Given a store whose Redis is gone, and a policy that falls back to a local limit
    RedisServer dead = RedisServer.start("cc-outage");
    Policy local = Policy.concurrency("export-local", 2, Duration.ofSeconds(1));
    try (RedisStore store =
        RedisStore.builder()
            .url(dead.url())
            .decisionTimeout(Duration.ofMillis(100))
            .socketTimeout(Duration.ofMillis(80))
            .build()) {
      dead.close();
      // When two are admitted locally, a third is refused; a release lets one more in
      assertThat(store.decide(local, "k", 1).isAllowed()).isTrue();
      assertThat(store.decide(local, "k", 1).isAllowed()).isTrue();
      assertThat(store.decide(local, "k", 1).isAllowed()).isFalse();
      store.refund(local, "k", 1);
      Decision again = store.decide(local, "k", 1);
      assertThat(again.isAllowed()).isTrue();
      assertThat(again.isVerified()).isFalse();
    }
  }
}
