package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Calendar quotas on the server's clock: the caller computes the periods with the zone rules, the
 * script picks the one of the server's {@code TIME}, and the key expires at its end (PEXPIREAT).
 * The script's choice is also tested here with its time given, at a Berlin midnight that ends a
 * 25-hour day.
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

  /** The scripts' microseconds of {@code at}: since 2025-01-01, as prelude.lua counts. */
  private static long micros(Instant at) {
    return Duration.between(Instant.ofEpochSecond(RedisStore.EPOCH_SECONDS), at).toNanos() / 1_000;
  }

  /**
   * The decide script's reply for {@code c} at the script's time {@code now}, from a caller at
   * {@code wall}, as {outcome, limit, remaining, resetAfter, retryAfter, delay}.
   */
  private static List<?> decide(Jedis jedis, CompiledPolicy c, Instant now, Instant wall) {
    List<String> args =
        c.quotaArgs(
            Long.toString(micros(now)),
            1,
            "60000",
            micros(wall),
            RedisStore.EPOCH_SECONDS * 1_000_000L);
    Object reply = jedis.eval(c.decide.source(), c.keys("k"), args);
    if (reply instanceof String text) {
      // by the first limit, "remaining resetAfter" (admitted) or "-retryAfter resetAfter", in full
      String[] fields = text.split(" ");
      long first = Long.parseLong(fields[0]);
      long reset = Long.parseLong(fields[1]);
      return first >= 0
          ? List.of(1L, 1L, first, reset, 0L, 0L)
          : List.of(0L, 1L, 0L, reset, -first, 0L);
    }
    return (List<?>) reply;
  }

  @Test
  void theScriptsTimePicksTheBerlinDayWhateverTheCallersClock() {
    // Given a Berlin daily quota of 3 spent on the day clocks go back (25 hours, to 23:00Z)
    Instant midnight = Instant.parse("2025-10-26T23:00:00Z");
    Limit quota = Limit.parse("3/day").inCalendar(ZoneId.of("Europe/Berlin"), 1);
    CompiledPolicy c =
        new CompiledPolicy(
            new Policy("berlin", Algorithm.TOKEN_BUCKET, List.of(quota), FailureMode.FAIL_CLOSED),
            new KeyScheme("choice:"));
    try (Jedis jedis = new Jedis(URI.create(server.url()))) {
      Instant early = midnight.minusSeconds(10);
      for (long left = 2; left >= 0; left--) {
        assertThat(decide(jedis, c, early, early)).element(2).isEqualTo(left);
      }
      String key = c.keys("k").get(0);
      String spent = micros(midnight) + " 3";

      // When a caller 5 s ahead, past midnight on its clock, asks at 2.5 s before midnight
      Instant at = midnight.minusMillis(2_500);
      // Then it is refused until midnight: the 25-hour day is the period before its own
      assertThat(decide(jedis, c, at, at.plusSeconds(5)))
          .isEqualTo(List.of(0L, 1L, 0L, 2_500_000L, 2_500_000L, 0L));
      // and so is a caller in step at 1.2 s before midnight; the day's count is kept
      at = midnight.minusMillis(1_200);
      assertThat(decide(jedis, c, at, at)).element(4).isEqualTo(1_200_000L);
      assertThat(jedis.get(key)).isEqualTo(spent);

      // When the script's time passes midnight, Then a caller 5 s behind counts in the new day
      at = midnight.plusMillis(500);
      long toNextMidnight = micros(midnight.plus(Duration.ofDays(1))) - micros(at);
      assertThat(decide(jedis, c, at, at.minusSeconds(5)))
          .isEqualTo(List.of(1L, 1L, 2L, toNextMidnight, 0L, 0L));
      assertThat(jedis.get(key)).isEqualTo(micros(midnight.plus(Duration.ofDays(1))) + " 1");

      // When a caller is a day and more off, Then the script answers its own time, writing nothing
      assertThat(decide(jedis, c, at, at.plus(Duration.ofHours(49))))
          .isEqualTo(List.of(micros(at)));
      assertThat(decide(jedis, c, at, at.minus(Duration.ofHours(49))))
          .isEqualTo(List.of(micros(at)));
      assertThat(jedis.get(key)).isEqualTo(micros(midnight.plus(Duration.ofDays(1))) + " 1");
    }
  }
}
