package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the store logs through java.util.logging when Redis is out of reach (issue 17, item 7). */
class RedisLoggingTest {

  private static final Policy POLICY =
      Policy.tokenBucket("logged", Limit.bucket(1000, Duration.ofSeconds(1), 1_000_000))
          .withFailureMode(FailureMode.FAIL_OPEN);

  private final StoreLog log = new StoreLog();

  @AfterEach
  void stopListening() {
    log.close();
  }

  /**
   * The lines at {@code level} containing {@code text}, once there is one; {@code meanwhile} runs
   * before each look.
   */
  private List<LogRecord> awaitRecord(Level level, String text, Runnable meanwhile) {
    Predicate<LogRecord> wanted = r -> r.getLevel().equals(level) && r.getMessage().contains(text);
    Await.until(
        () -> String.format("a %s line containing '%s'; got %s", level, text, log.messages()),
        Duration.ofSeconds(5),
        () -> {
          meanwhile.run();
          return log.records().stream().anyMatch(wanted);
        });
    return log.records().stream().filter(wanted).toList();
  }

  @Test
  void anUnreachableRedisAtStartUpIsAWarningAndTheStoreStartsAnyway() {
    int port = RedisServer.freePort();
    try (RedisStore store = RedisStore.builder().url("redis://127.0.0.1:" + port + "/13").build()) {
      List<LogRecord> lines = awaitRecord(Level.WARNING, "at start-up", () -> {});
      assertThat(lines).hasSize(1);
      assertThat(lines.get(0).getMessage()).contains("127.0.0.1:" + port).contains("failure mode");
      // And the failure mode decides
      assertThat(store.decide(POLICY, "k", 1).isAllowed()).isTrue();
    }
  }

  @Test
  void theBreakerLogsWhenItOpensWhileOpenAndWhenItCloses() {
    RedisServer server = RedisServer.start("logging");
    // The breaker's open duration and log interval pass on this clock, not in real time.
    ManualClock clock = ManualClock.nearMaxValue();
    Duration open = Duration.ofMillis(300);
    Duration logInterval = Duration.ofMillis(200);
    try (RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .decisionTimeout(Duration.ofMillis(100))
            .breakerFailureThreshold(3)
            .breakerOpenDuration(open)
            .logInterval(logInterval)
            .clock(clock)
            .build()) {
      Runnable decide = () -> store.decide(POLICY, "k", 1);
      Await.until(
          "connected to Redis",
          Duration.ofSeconds(5),
          () -> store.decide(POLICY, "k", 1).isVerified());
      String node = server.host() + ":" + server.port();
      // When Redis dies
      server.kill();
      // Then one line says the breaker opened, with the cause
      List<LogRecord> opened =
          awaitRecord(Level.WARNING, "opened after 3 consecutive failures", decide);
      assertThat(opened).hasSize(1);
      assertThat(opened.get(0).getMessage()).contains(node).contains("Last failure: ");
      // And while it stays open, a summary counts the decisions that fell back
      clock.advance(logInterval);
      List<LogRecord> summary = awaitRecord(Level.WARNING, "still open", decide);
      assertThat(summary.get(0).getMessage())
          .containsPattern("still open: [1-9][0-9]* decisions fell back");
      // When Redis is back
      server.restart();
      // Then one line says the breaker closed
      List<LogRecord> closed =
          awaitRecord(
              Level.INFO,
              "closed",
              () -> {
                clock.advance(open); // a probe is due on each try until one succeeds
                decide.run();
              });
      assertThat(closed).hasSize(1);
      assertThat(closed.get(0).getMessage())
          .contains(node)
          .containsPattern("[1-9][0-9]* decisions fell back");
      assertThat(log.records()).noneMatch(r -> r.getMessage().contains("at start-up"));
    } finally {
      server.close();
    }
  }
}
