package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** Server time, key expiry and NOSCRIPT recovery, on a server of its own (it flushes scripts). */
class ServerTimeAndExpiryTest {

  private static RedisServer server;

  @BeforeAll
  static void start() {
    server = RedisServer.start("expiry");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Jedis jedis() {
    return new Jedis(URI.create(server.url()));
  }

  private static RedisStore store() {
    return RedisStore.builder().url(server.url()).build();
  }

  @Test
  void serverTimeDecisionsAreVerifiedAndSayWhenToRetry() {
    try (RedisStore store = store()) {
      assertThat(store.timeSource()).isEqualTo(RateLimitStore.TimeSource.SERVER);
      for (Algorithm algorithm : Algorithm.values()) {
        Limit limit =
            algorithm.isBucket()
                ? Limit.bucket(1, Duration.ofHours(1), 3)
                : Limit.of(3, Duration.ofHours(1));
        Policy policy =
            new Policy(
                "server-" + algorithm.configName(),
                algorithm,
                List.of(limit),
                FailureMode.FAIL_CLOSED);
        for (int i = 0; i < 3; i++) {
          Decision d = store.decide(policy, "k", 1);
          assertThat(d.isAllowed()).as("%s admission %d", algorithm, i).isTrue();
          assertThat(d.isVerified()).isTrue();
          // The leaky bucket rounds its room up: a microsecond of draining already counts
          long expected = algorithm == Algorithm.LEAKY_BUCKET && i > 0 ? 3 - i : 2 - i;
          assertThat(d.remaining())
              .as("%s remaining after %d", algorithm, i + 1)
              .isEqualTo(expected);
        }
        // Two permits: the leaky bucket has drained a few microseconds meanwhile, enough for one
        Decision rejected = store.decide(policy, "k", 2);
        assertThat(rejected.outcome()).as("%s", algorithm).isEqualTo(Decision.Outcome.LIMITED);
        // At most two windows: the sliding counter waits for this window's count to decay
        assertThat(rejected.retryAfter())
            .get()
            .satisfies(d -> assertThat(d).isPositive().isLessThanOrEqualTo(Duration.ofHours(2)));
      }
    }
  }

  @Test
  void everyKeyExpiresSoonAfterItIsFreshAgain() {
    try (RedisStore store = store();
        Jedis jedis = jedis()) {
      jedis.flushAll();
      // Given state for every algorithm, with one and with two limits, fresh again within 3 s: long
      // enough that no key expires before it is counted, even on a loaded machine
      for (Algorithm algorithm : Algorithm.values()) {
        if (algorithm == Algorithm.CONCURRENCY) {
          continue; // held keys live by their holds, not by a time to fresh: see below
        }
        List<Limit> limits =
            algorithm.isBucket()
                ? List.of(
                    Limit.bucket(10, Duration.ofSeconds(1), 3),
                    Limit.bucket(20, Duration.ofSeconds(3), 5))
                : List.of(Limit.of(3, Duration.ofSeconds(1)), Limit.of(5, Duration.ofMillis(1500)));
        Policy policy =
            new Policy("ttl-" + algorithm.configName(), algorithm, limits, FailureMode.FAIL_CLOSED);
        for (String key : List.of("a", "b", "c")) {
          for (int i = 0; i < 4; i++) {
            store.decide(policy, key, 1);
          }
        }
        store.refund(policy, "a", 1);
      }
      long keys = jedis.dbSize();
      assertThat(keys).isEqualTo((Algorithm.values().length - 1) * 3 * 2);
      // Then each key's TTL is at most its time to fresh, plus the margin of one millisecond
      Set<String> names = jedis.keys("limiter:*");
      for (String name : names) {
        long pttl = jedis.pttl(name);
        // 0: due this very millisecond; -2: gone already, as a loaded machine can take this long.
        // Never -1, a key without expiry.
        assertThat(pttl)
            .as("PTTL of %s", name)
            .satisfiesAnyOf(
                ttl -> assertThat(ttl).isBetween(0L, 3002L), ttl -> assertThat(ttl).isEqualTo(-2L));
      }
      // And after that time, nothing is left
      Await.within(Duration.ofSeconds(8), () -> jedis.dbSize() == 0);
      assertThat(jedis.dbSize()).isZero();
    }
  }

  @Test
  void aHeldConcurrencyKeyLivesAsLongAsItsHoldAndGoesWhenAllIsReleased() {
    Policy export =
        Policy.concurrency("ttl-export", 2, Duration.ofSeconds(1))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    try (RedisStore store =
            RedisStore.builder().url(server.url()).concurrencyHold(Duration.ofSeconds(5)).build();
        Jedis jedis = jedis()) {
      // Given two permits held on one key
      assertThat(store.decide(export, "k", 1).isAllowed()).isTrue();
      assertThat(store.decide(export, "k", 1).isAllowed()).isTrue();
      String key = store.redisKey(export, "k", 0);

      // Then the key lives as long as the hold, 5 s, not the 1 s hint
      assertThat(jedis.pttl(key)).isBetween(4000L, 5001L);
      assertThat(jedis.hget(key, store.node())).startsWith("2 ");

      // And when both are released, the key is gone
      store.refund(export, "k", 1);
      assertThat(jedis.hget(key, store.node())).startsWith("1 ");
      store.refund(export, "k", 1);
      assertThat(jedis.exists(key)).isFalse();
    }
  }

  @Test
  void aKeyInDebtLivesUntilItsDebtIsPaid() {
    try (RedisStore store = store();
        Jedis jedis = jedis()) {
      jedis.flushAll();
      // Given, for every algorithm, a key charged 5 more after one request of 3: it owes 3, which
      // a window carries into the next one
      for (Algorithm algorithm : Algorithm.values()) {
        Limit limit =
            algorithm.isBucket()
                ? Limit.bucket(3, Duration.ofSeconds(10), 3)
                : Limit.of(3, Duration.ofSeconds(10));
        Policy policy =
            new Policy(
                "debt-" + algorithm.configName(),
                algorithm,
                List.of(limit),
                FailureMode.FAIL_CLOSED);
        store.decide(policy, "k", 1);
        store.adjust(policy, "k", 5);
        Decision owing = store.decide(policy, "k", 1);
        assertThat(owing.outcome()).as(algorithm.configName()).isEqualTo(Decision.Outcome.LIMITED);
        // Then its TTL reaches at least until the request would pass: the debt is not forgotten
        String name = jedis.keys("*{debt-" + algorithm.configName() + ":k}*").iterator().next();
        long retryMillis = owing.retryAfter().orElseThrow().toMillis();
        assertThat(jedis.pttl(name))
            .as("PTTL of %s, retry after %s ms", name, retryMillis)
            .isGreaterThanOrEqualTo(retryMillis - 50);
      }
    }
  }

  @Test
  void noScriptAfterScriptFlushIsRecoveredTransparently() {
    Policy policy =
        Policy.tokenBucket("noscript", Limit.bucket(1, Duration.ofHours(1), 100))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    try (RedisStore store = store();
        Jedis jedis = jedis()) {
      assertThat(store.decide(policy, "k", 1).remaining()).isEqualTo(99);
      String sha = Scripts.decide(Algorithm.TOKEN_BUCKET, false).sha();
      assertThat(jedis.scriptExists(sha)).isTrue();
      // When the scripts are flushed (as after a restart or a failover)
      jedis.scriptFlush();
      assertThat(jedis.scriptExists(sha)).isFalse();
      // Then the next decision is still Redis's own, and the script is back
      Decision next = store.decide(policy, "k", 1);
      assertThat(next.isVerified()).isTrue();
      assertThat(next.remaining()).isEqualTo(98);
      assertThat(jedis.scriptExists(sha)).isTrue();
      assertThat(store.health().up()).isTrue();
      assertThat(store.health().lastError()).isEmpty();
      // And refunds recover the same way
      jedis.scriptFlush();
      store.refund(policy, "k", 2);
      assertThat(store.decide(policy, "k", 1).remaining()).isEqualTo(99);
    }
  }
}
