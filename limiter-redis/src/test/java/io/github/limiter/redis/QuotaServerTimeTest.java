package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Calendar quotas on the server's clock: the caller computes the periods with the zone rules, the
 * script picks the one of the server's {@code TIME}, and the key expires at its end (PEXPIREAT).
 */
class QuotaServerTimeTest {

  private static RedisServer server;

  @BeforeAll
  static void start() {
    server = RedisServer.start("quota");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** The next local midnight after {@code at} in {@code zone}, in epoch milliseconds. */
  private static long nextMidnight(Instant at, ZoneId zone) {
    LocalDate day = at.atZone(zone).toLocalDate().plusDays(1);
    return day.atStartOfDay(zone).toInstant().toEpochMilli();
  }

  @Test
  void aDailyQuotaKeyExpiresAtTheNextLocalMidnightOnTheServersClock() {
    ZoneId zone = ZoneId.of("Pacific/Chatham"); // +12:45 or +13:45: no whole-hour offset
    Limit quota = Limit.parse("2/day").inCalendar(zone, 1);
    Policy policy = Policy.tokenBucket("daily", Limit.bucket(10, Duration.ofSeconds(1), 10), quota);
    try (RedisStore store = RedisStore.builder().url(server.url()).keyPrefix("q:").build();
        Jedis jedis = new Jedis(URI.create(server.url()))) {
      Instant before = Instant.now();
      store.decide(policy, "k", 1);
      store.decide(policy, "k", 1);
      Decision refused = store.decide(policy, "k", 1);
      Instant after = Instant.now();

      // Then the refusal waits until local midnight
      assertThat(refused.isAllowed()).isFalse();
      assertThat(refused.limit()).isEqualTo(quota);
      long midnight = nextMidnight(after, zone);
      long wait = refused.retryAfter().orElseThrow().toMillis();
      assertThat(after.toEpochMilli() + wait)
          .isBetween(
              midnight - (after.toEpochMilli() - before.toEpochMilli()) - 1000, midnight + 1);

      // And the quota's key expires at that midnight exactly
      Set<String> keys = jedis.keys("q:*");
      String key = keys.stream().filter(k -> k.endsWith("qD0")).findFirst().orElseThrow();
      Object expireAt = jedis.sendCommand(() -> "PEXPIRETIME".getBytes(), key);
      assertThat((Long) expireAt).isIn(nextMidnight(before, zone), midnight);
      assertThat(jedis.get(key)).endsWith(" 2");
    }
  }
}
