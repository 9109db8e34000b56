package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pooled connections closed while idle, by the server's {@code timeout} or by {@code CLIENT KILL},
 * against a Redis that is healthy all along: no decision may fall back (issue 17, blocker 3).
 */
class StaleConnectionTest {

  private static final Policy FAIL_CLOSED =
      Policy.tokenBucket("stale", Limit.bucket(1000, Duration.ofSeconds(1), 1_000_000))
          .withFailureMode(FailureMode.FAIL_CLOSED);

  private static RedisServer server;

  @BeforeAll
  static void start() {
    // Redis closes a connection idle for 1 s.
    server = RedisServer.start("stale", "--timeout", "1");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /**
   * The idle check is far off, so that only the retry on a fresh connection can save the decisions.
   */
  private static RedisStore store(Duration idleCheck, String mode) {
    RedisStoreBuilder builder = RedisStore.builder();
    if (!mode.equals("auto")) {
      builder.pipeline(Boolean.parseBoolean(mode));
    }
    return builder
        .url(server.url())
        .decisionTimeout(Duration.ofMillis(250))
        .breakerFailureThreshold(5)
        .idleCheckInterval(idleCheck)
        .poolMaxTotal(8)
        .build();
  }

  /**
   * Fills the pool: concurrent callers each hold a connection in direct mode; pipelined, they share
   * one; by default (auto), they hold a connection each while one is idle, and queue while none is.
   */
  private static void warmUp(RedisStore store, String mode) throws InterruptedException {
    boolean pipeline = !mode.equals("false");
    // a key per thread: decisions on one key wait for each other (same-key groups)
    try (Load load =
        new Load(
            8,
            30_000,
            () -> store.decide(FAIL_CLOSED, "warm" + Thread.currentThread().getId(), 1))) {
      awaitDecisions(load, 2_000);
    }
    assertThat(((DirectTransport) store.transport()).idleConnections())
        .as("pooled connections")
        .isGreaterThan(pipeline ? 0 : 1);
  }

  private static void awaitDecisions(Load load, int count) {
    Await.until(count + " decisions", Duration.ofSeconds(10), () -> load.samples().size() >= count);
  }

  /** Waits until Redis has closed every connection of the store's pool (its client name). */
  private static void awaitClosedByTheServer() {
    Await.until(
        "the server's timeout closed the idle connections",
        Duration.ofSeconds(10),
        () -> !((String) server.call("CLIENT", "LIST")).contains(" name=limiter "));
  }

  private static void assertNoFallback(RedisStore store) throws InterruptedException {
    // Sequential callers draw the stale connections one after another ...
    for (int i = 0; i < 20; i++) {
      Decision d = store.decide(FAIL_CLOSED, "seq", 1);
      assertThat(d.isVerified()).as("decision %s verified, was %s", i, d.outcome()).isTrue();
    }
    // ... and concurrent ones all at once.
    List<Load.Sample> samples;
    try (Load load = new Load(8, 30_000, () -> store.decide(FAIL_CLOSED, "par", 1))) {
      awaitDecisions(load, 2_000);
      samples = load.samples();
      assertThat(load.thrown).isEmpty();
    }
    assertThat(samples)
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.decision().isVerified()).isTrue());
    assertThat(store.health().up()).isTrue();
  }

  @ParameterizedTest(name = "pipeline.enabled={0}")
  @ValueSource(strings = {"auto", "true", "false"})
  void connectionsClosedByTheServerTimeoutDoNotMakeDecisionsFallBack(String mode) throws Exception {
    try (RedisStore store = store(Duration.ofHours(1), mode)) {
      // Given a full pool, left idle until the server's timeout has closed every connection
      warmUp(store, mode);
      awaitClosedByTheServer();
      // Then every decision is verified
      assertNoFallback(store);
      // And idle again, once more
      awaitClosedByTheServer();
      assertNoFallback(store);
    }
  }

  @ParameterizedTest(name = "pipeline.enabled={0}")
  @ValueSource(strings = {"auto", "true", "false"})
  void connectionsKilledWithClientKillDoNotMakeDecisionsFallBack(String mode) throws Exception {
    try (RedisStore store = store(Duration.ofHours(1), mode)) {
      // Given a full pool
      warmUp(store, mode);
      // When Redis kills every client connection (not the one that asks)
      assertThat((Long) server.call("CLIENT", "KILL", "TYPE", "normal"))
          .isGreaterThan(mode.equals("false") ? 1L : 0L);
      // Then every decision is verified
      assertNoFallback(store);
    }
  }

  @ParameterizedTest(name = "pipeline.enabled={0}")
  @ValueSource(strings = {"auto", "true", "false"})
  void theIdleCheckDropsKilledConnectionsBeforeADecisionDrawsThem(String mode) throws Exception {
    try (RedisStore store = store(Duration.ofMillis(100), mode)) {
      warmUp(store, mode);
      DirectTransport transport = (DirectTransport) store.transport();
      // When the pooled connections are killed while idle
      server.call("CLIENT", "KILL", "TYPE", "normal");
      // Then the idle check finds them closed and drops them
      Await.until(
          "stale connections dropped within 2 s",
          Duration.ofSeconds(2),
          () -> transport.idleConnections() == 0);
      assertNoFallback(store);
    }
  }
}
