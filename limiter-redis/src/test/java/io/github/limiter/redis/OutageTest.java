package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.StoreHealth;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A standalone Redis killed, frozen and restarted under load; each test has a server of its own.
 */
class OutageTest {

  private static final Duration BUDGET = Duration.ofMillis(100);
  private static final long BUDGET_NANOS = BUDGET.toNanos();

  private RedisServer server;
  private RedisStore store;

  @BeforeEach
  void start() {
    server = RedisServer.start("outage");
    store =
        RedisStore.builder()
            .url(server.url())
            .decisionTimeout(BUDGET)
            .socketTimeout(Duration.ofMillis(80))
            .breakerFailureThreshold(5)
            .breakerOpenDuration(Duration.ofMillis(300))
            .localNodes(2)
            .build();
  }

  @AfterEach
  void stop() {
    store.close();
    server.close();
  }

  private static Policy policy(FailureMode mode) {
    return Policy.tokenBucket(
            "outage-" + mode.configName(), Limit.bucket(1000, Duration.ofSeconds(1), 1_000_000))
        .withFailureMode(mode);
  }

  private void awaitVerified(Policy policy, Duration within) {
    Await.until("verified", within, () -> store.decide(policy, "probe", 1).isVerified());
  }

  /** Waits until the load has made {@code count} decisions that ended after {@code instant}. */
  private static void awaitSamples(
      Load load, String what, int count, long instant, boolean verified) {
    Await.until(
        what,
        Duration.ofSeconds(10),
        () ->
            load.samples().stream()
                    .filter(s -> s.endedAt() > instant && s.decision().isVerified() == verified)
                    .count()
                >= count);
  }

  @Test
  void failOpenAdmitsWithinTheBudgetWhileRedisIsDeadAndRecoversAfterARestart() throws Exception {
    Policy policy = policy(FailureMode.FAIL_OPEN);
    awaitVerified(policy, Duration.ofSeconds(2));
    long killedAt;
    long restartingAt;
    long restartedAt;
    List<Load.Sample> samples;
    try (Load load = new Load(8, 30_000, () -> store.decide(policy, "k", 1))) {
      awaitSamples(load, "decisions on a live Redis", 1_000, 0, true);
      // When Redis dies under load
      server.kill();
      killedAt = System.nanoTime();
      // (and the breaker has opened, so that decisions fall back at once)
      awaitSamples(load, "decisions while Redis is dead", 4_000, killedAt + 20_000_000L, false);
      StoreHealth down = store.health();
      assertThat(down.up()).isFalse();
      assertThat(down.breaker()).isIn("open", "half-open");
      assertThat(down.lastError()).isPresent();
      // And comes back on the same port (answering before restart() returns)
      restartingAt = System.nanoTime();
      server.restart();
      restartedAt = System.nanoTime();
      Await.within(Duration.ofSeconds(5), () -> verifiedAfter(load.samples(), restartedAt));
      if (verifiedAfter(load.samples(), restartedAt)) {
        awaitSamples(load, "decisions after the restart", 1_000, restartedAt, true);
      }
      samples = load.samples();
      assertThat(load.thrown).as("nothing reaches the caller").isEmpty();
    }
    // Then no decision waited longer than the budget at the 99th percentile
    assertThat(Load.percentile(samples, 0.99)).as("p99 latency in ns").isLessThan(BUDGET_NANOS);
    // And every decision while Redis was dead was an unverified admission
    List<Load.Sample> during =
        samples.stream()
            .filter(s -> s.endedAt() > killedAt + 20_000_000L && s.endedAt() < restartingAt)
            .toList();
    assertThat(during)
        .isNotEmpty()
        .allSatisfy(
            s -> {
              assertThat(s.decision().isAllowed()).isTrue();
              assertThat(s.decision().isVerified()).isFalse();
            });
    // And Redis decides again within 5 s of its restart, with the same store
    assertThat(verifiedAfter(samples, restartedAt)).isTrue();
    long firstVerified =
        samples.stream()
            .filter(s -> s.endedAt() > restartedAt && s.decision().isVerified())
            .mapToLong(Load.Sample::endedAt)
            .min()
            .orElseThrow();
    assertThat(Duration.ofNanos(firstVerified - restartedAt)).isLessThan(Duration.ofSeconds(5));
    assertThat(store.health().up()).isTrue();
    assertThat(store.health().breaker()).isEqualTo("closed");
  }

  private static boolean verifiedAfter(List<Load.Sample> samples, long instant) {
    return samples.stream().anyMatch(s -> s.endedAt() > instant && s.decision().isVerified());
  }

  @Test
  void failClosedRejectsPromptlyWhileRedisIsDead() throws Exception {
    Policy policy = policy(FailureMode.FAIL_CLOSED);
    awaitVerified(policy, Duration.ofSeconds(2));
    server.kill();
    long killedAt = System.nanoTime();
    List<Load.Sample> samples;
    try (Load load = new Load(4, 30_000, () -> store.decide(policy, "k", 1))) {
      awaitSamples(load, "decisions while Redis is dead", 2_000, killedAt, false);
      samples = load.samples();
      assertThat(load.thrown).isEmpty();
    }
    assertThat(samples)
        .hasSizeGreaterThan(100)
        .allSatisfy(
            s -> {
              Decision d = s.decision();
              assertThat(d.outcome()).isEqualTo(Decision.Outcome.UNAVAILABLE);
              assertThat(d.isVerified()).isFalse();
              assertThat(d.retryAfter()).get().satisfies(r -> assertThat(r).isPositive());
              assertThat(s.latencyNanos()).isLessThan(BUDGET_NANOS + 30_000_000L);
            });
    assertThat(samples.get(0).endedAt()).isGreaterThan(killedAt);
    assertThat(Load.percentile(samples, 0.99)).isLessThan(BUDGET_NANOS);
  }

  @Test
  void localModeDecidesInMemoryWithTheLimitSharedByTheNodes() {
    // 10 per hour over 2 nodes: each node admits 5 on its own
    Policy policy =
        Policy.fixedWindow("outage-local", Limit.of(10, Duration.ofHours(1)))
            .withFailureMode(FailureMode.LOCAL);
    awaitVerified(policy, Duration.ofSeconds(2));
    server.kill();
    int admitted = 0;
    for (int i = 0; i < 20; i++) {
      Decision d = store.decide(policy, "local-key", 1);
      assertThat(d.isVerified()).isFalse();
      if (d.isAllowed()) {
        admitted++;
      } else {
        assertThat(d.outcome()).isEqualTo(Decision.Outcome.LIMITED);
        assertThat(d.limit()).isEqualTo(Limit.of(5, Duration.ofHours(1)));
      }
    }
    assertThat(admitted).isEqualTo(5);
  }

  @Test
  void aFrozenRedisCostsAtMostTheBudgetAndThenNothingWhileTheBreakerIsOpen() throws Exception {
    Policy policy = policy(FailureMode.FAIL_OPEN);
    awaitVerified(policy, Duration.ofSeconds(2));
    // When Redis stops answering but keeps its connections open
    server.freeze();
    try {
      long worst = 0;
      for (int i = 0; i < 5; i++) {
        long start = System.nanoTime();
        Decision d = store.decide(policy, "k", 1);
        worst = Math.max(worst, System.nanoTime() - start);
        assertThat(d.isAllowed()).isTrue();
        assertThat(d.isVerified()).isFalse();
      }
      // Then each decision waited no longer than the budget (plus scheduling jitter)
      assertThat(Duration.ofNanos(worst)).isLessThan(BUDGET.plusMillis(30));
      assertThat(store.health().breaker()).isEqualTo("open");
      assertThat(store.health().lastError()).get().asString().contains("timed out");
      // And while the breaker is open, decisions do not wait at all
      long start = System.nanoTime();
      for (int i = 0; i < 100; i++) {
        assertThat(store.decide(policy, "k", 1).isVerified()).isFalse();
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(50));
    } finally {
      server.thaw();
    }
    // And once Redis answers again, the breaker closes by itself
    awaitVerified(policy, Duration.ofSeconds(5));
    assertThat(store.health().up()).isTrue();
  }
}
