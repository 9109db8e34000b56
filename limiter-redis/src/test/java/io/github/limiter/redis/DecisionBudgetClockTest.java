package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decision budget is measured on the store's clock, in both transports' modes: a clock that
 * moves past the deadline between two readings makes the call give up before it is sent, without
 * waiting in real time for anything.
 */
class DecisionBudgetClockTest {

  private static final Duration BUDGET = Duration.ofMillis(250);
  private static final Policy POLICY =
      Policy.tokenBucket("budget-clock", Limit.bucket(1000, Duration.ofSeconds(1), 1_000_000))
          .withFailureMode(FailureMode.FAIL_CLOSED);

  private static RedisServer server;

  @BeforeAll
  static void start() {
    server = RedisServer.start("budget-clock");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static long evalshaCalls() {
    RedisServer.CommandStats stats = server.commandStats().get("evalsha");
    return stats == null ? 0 : stats.calls();
  }

  @ParameterizedTest(name = "pipeline={0}")
  @ValueSource(booleans = {true, false})
  void aCallWhoseDeadlinePassesOnTheStoresClockIsNotSent(boolean pipeline) {
    // A clock that moves by step on every reading; still at first
    AtomicLong now = new AtomicLong(Long.MAX_VALUE - Duration.ofSeconds(5).toNanos());
    AtomicLong step = new AtomicLong();
    NanoClock clock = () -> now.addAndGet(step.get());
    try (RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .pipeline(pipeline)
            .decisionTimeout(BUDGET)
            .clock(clock)
            .build()) {
      Await.until(
          "connected to Redis",
          Duration.ofSeconds(5),
          () -> store.decide(POLICY, "k", 1).isVerified());
      // When each reading of the clock is past the deadline taken at the one before
      step.set(BUDGET.plusMillis(1).toNanos());
      long sent = evalshaCalls();
      Decision d = store.decide(POLICY, "k", 1);
      // Then the decision falls back, and Redis never saw the call
      assertThat(d.isVerified()).isFalse();
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.UNAVAILABLE);
      assertThat(store.health().lastError()).get().asString().contains("decision timeout");
      assertThat(evalshaCalls()).isEqualTo(sent);
      // And once the clock keeps still again, the next decision is Redis's own
      step.set(0);
      assertThat(store.decide(POLICY, "k", 1).isVerified()).isTrue();
      assertThat(evalshaCalls()).isEqualTo(sent + 1);
    }
  }
}
