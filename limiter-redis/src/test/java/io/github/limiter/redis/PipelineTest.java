package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.StoreHealth;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pipelined decisions on a standalone Redis: concurrent callers share round trips and stay exact; a
 * lone caller goes out alone; NOSCRIPT, a frozen server and the breaker behave as in direct mode.
 * Auto mode (the default) calls directly while a connection is idle, pipelines while none is, and
 * goes back once the queue is empty. Each test has a server of its own, since the counts are
 * server-wide. Pipelining is forced where a test counts pipelined calls.
 */
class PipelineTest {

  private static final int THREADS = 16;

  private RedisServer server;
  private final List<RedisStore> stores = new ArrayList<>();

  @BeforeEach
  void start() {
    server = RedisServer.start("pipeline");
  }

  @AfterEach
  void stop() {
    stores.forEach(RedisStore::close);
    server.close();
  }

  private RedisStore store(Duration budget) {
    RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .pipeline(true)
            .decisionTimeout(budget)
            .socketTimeout(budget)
            .breakerFailureThreshold(5)
            .breakerOpenDuration(Duration.ofSeconds(1))
            .build();
    stores.add(store);
    return store;
  }

  /** A store in the default (auto) dispatch with {@code connections} per node, closed after. */
  private RedisStore autoStore(int connections) {
    RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .poolMaxTotal(connections)
            .decisionTimeout(Duration.ofSeconds(10))
            .socketTimeout(Duration.ofSeconds(10))
            .build();
    stores.add(store);
    return store;
  }

  private static PipelineDispatcher dispatcher(RedisStore store) {
    PipelineDispatcher dispatcher = ((DirectTransport) store.transport()).pipeline();
    assertThat(dispatcher).as("pipelining is on").isNotNull();
    return dispatcher;
  }

  /** Runs {@code task} on {@code threads} threads at once and returns what each returned. */
  private static <T> List<T> onThreads(int threads, Callable<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(pool.submit(task));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void concurrentCallersShareRoundTripsAndAdmitExactlyTheLimit() throws Exception {
    RedisStore store = store(Duration.ofSeconds(2));
    PipelineDispatcher dispatcher = dispatcher(store);
    // A bucket of 125 per key that refills 1 per hour, a key per thread (so that no same-key group
    // forms, see GroupsTest): exactly 2 000 of 8 000 decisions pass
    Policy policy =
        Policy.tokenBucket("pipelined", Limit.bucket(1, Duration.ofHours(1), 125))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    long before = scriptRuns();
    AtomicInteger keys = new AtomicInteger();

    List<long[]> counts =
        onThreads(
            THREADS,
            () -> {
              long[] allowedAndVerified = new long[2];
              String key = "hot" + keys.incrementAndGet();
              for (int i = 0; i < 500; i++) {
                Decision d = store.decide(policy, key, 1);
                allowedAndVerified[0] += d.isAllowed() ? 1 : 0;
                allowedAndVerified[1] += d.isVerified() ? 1 : 0;
              }
              return allowedAndVerified;
            });

    long allowed = counts.stream().mapToLong(c -> c[0]).sum();
    long verified = counts.stream().mapToLong(c -> c[1]).sum();
    assertThat(verified).as("every decision answered by Redis").isEqualTo(THREADS * 500L);
    assertThat(allowed).as("exactly the bucket's capacity").isEqualTo(2_000);
    assertThat(dispatcher.calls.sum()).isEqualTo(THREADS * 500L);
    assertThat(dispatcher.largestBatch.get()).as("some batch held several calls").isGreaterThan(1);
    assertThat(dispatcher.batches.sum())
        .as("fewer round trips than decisions")
        .isLessThan(dispatcher.calls.sum());
    assertThat(scriptRuns() - before)
        .as("Redis ran the script once per decision")
        .isEqualTo(THREADS * 500L);
  }

  @Test
  void aLoneCallerGoesOutAloneEveryTime() {
    RedisStore store = store(Duration.ofSeconds(2));
    PipelineDispatcher dispatcher = dispatcher(store);
    Policy policy = Policy.tokenBucket("lone", Limit.bucket(1000, Duration.ofSeconds(1), 1000));
    for (int i = 0; i < 200; i++) {
      assertThat(store.decide(policy, "k", 1).isVerified()).isTrue();
    }
    assertThat(dispatcher.batches.sum()).isEqualTo(200);
    assertThat(dispatcher.largestBatch.get()).isEqualTo(1);
  }

  @Test
  void noscriptInABatchReloadsTheScriptAndRetriesOnlyTheCallsThatGotIt() throws Exception {
    RedisStore store = store(Duration.ofSeconds(2));
    PipelineDispatcher dispatcher = dispatcher(store);
    Policy policy =
        Policy.tokenBucket("noscript", Limit.bucket(1, Duration.ofHours(1), 200))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    assertThat(store.decide(policy, "warm", 1).isVerified()).isTrue();
    AtomicLong flushes = new AtomicLong();
    AtomicLong decided = new AtomicLong();
    AtomicInteger roles = new AtomicInteger();

    List<long[]> counts =
        onThreads(
            THREADS + 1,
            () -> {
              long[] allowedAndVerified = new long[2];
              int role = roles.getAndIncrement();
              if (role == 0) {
                // one thread flushes the script cache again and again while the others decide:
                // each time they have made another 300 decisions
                for (int i = 0; i < 20; i++) {
                  long due = (i + 1) * 300L;
                  Await.until(
                      "another 300 decisions", Duration.ofSeconds(30), () -> decided.get() >= due);
                  server.call("SCRIPT", "FLUSH");
                  flushes.incrementAndGet();
                }
                return allowedAndVerified;
              }
              String key = "hot" + role; // a key per thread: no same-key groups
              for (int i = 0; i < 400; i++) {
                Decision d = store.decide(policy, key, 1);
                decided.incrementAndGet();
                allowedAndVerified[0] += d.isAllowed() ? 1 : 0;
                allowedAndVerified[1] += d.isVerified() ? 1 : 0;
              }
              return allowedAndVerified;
            });

    long allowed = counts.stream().mapToLong(c -> c[0]).sum();
    long verified = counts.stream().mapToLong(c -> c[1]).sum();
    assertThat(flushes.get()).isEqualTo(20);
    assertThat(verified).as("no decision fell back").isEqualTo(THREADS * 400L);
    assertThat(allowed).as("no call ran twice, none was lost").isEqualTo(THREADS * 200L);
    RedisServer.CommandStats evalsha = server.commandStats().get("evalsha");
    RedisServer.CommandStats eval = server.commandStats().get("eval");
    assertThat(eval).as("NOSCRIPT seen and the script loaded again by EVAL").isNotNull();
    assertThat(eval.calls())
        .as("at most one load at start and one per flush")
        .isLessThanOrEqualTo(21);
    long noscript = evalsha.failedCalls() + evalsha.rejectedCalls();
    assertThat(noscript).isGreaterThanOrEqualTo(eval.calls());
    assertThat(evalsha.calls() - noscript + eval.calls())
        .as("each decision ran exactly once")
        .isEqualTo(1 + THREADS * 400L);
    assertThat(dispatcher.largestBatch.get()).isGreaterThan(1);
    assertThat(store.health().up()).isTrue();
  }

  @Test
  void aFrozenServerCostsEachCallerAtMostItsBudgetThenTheBreakerOpensAndCloses() throws Exception {
    Duration budget = Duration.ofMillis(100);
    RedisStore store = store(budget);
    Policy policy =
        Policy.tokenBucket("frozen", Limit.bucket(1000, Duration.ofSeconds(1), 1_000_000))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    assertThat(store.decide(policy, "k", 1).isVerified()).isTrue();

    server.freeze();
    try {
      // Each of 8 concurrent callers waits at most about the budget, then fails closed
      List<Long> slowest =
          onThreads(
              8,
              () -> {
                long worst = 0;
                for (int i = 0; i < 3; i++) {
                  long start = System.nanoTime();
                  Decision d = store.decide(policy, "k", 1);
                  worst = Math.max(worst, System.nanoTime() - start);
                  assertThat(d.isVerified()).isFalse();
                  assertThat(d.outcome()).isEqualTo(Decision.Outcome.UNAVAILABLE);
                }
                return worst;
              });
      assertThat(slowest)
          .allSatisfy(
              nanos ->
                  assertThat(Duration.ofNanos(nanos))
                      .as("within the budget plus scheduling jitter")
                      .isLessThan(budget.plusMillis(150)));
      // The breaker is open: a decision falls back without waiting for Redis
      StoreHealth down = store.health();
      assertThat(down.up()).isFalse();
      assertThat(down.breaker()).isEqualTo("open");
      long start = System.nanoTime();
      assertThat(store.decide(policy, "k", 1).outcome()).isEqualTo(Decision.Outcome.UNAVAILABLE);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(budget);
    } finally {
      server.thaw();
    }

    // After the open duration a probe succeeds and the breaker closes
    Await.until(
        "verified again within 3 s",
        Duration.ofSeconds(3),
        () -> store.decide(policy, "k", 1).isVerified());
    assertThat(store.health().up()).isTrue();
    assertThat(store.health().breaker()).isEqualTo("closed");
  }

  @Test
  void directModeWritesNoPipeline() {
    RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .pipeline(false)
            .decisionTimeout(Duration.ofSeconds(2))
            .build();
    stores.add(store);
    assertThat(((DirectTransport) store.transport()).pipeline()).isNull();
    Policy policy = Policy.tokenBucket("direct", Limit.bucket(1000, Duration.ofSeconds(1), 1000));
    assertThat(store.decide(policy, "k", 1).isVerified()).isTrue();
  }

  @Test
  void theKeysTurnPipeliningOffAndBoundTheBatch() throws Exception {
    try (RedisStore direct =
            (RedisStore)
                new RedisStoreFactory()
                    .create(
                        ConfigLookup.of(
                            Map.of(
                                "limiter.redis.url",
                                server.url(),
                                "limiter.redis.pipeline.enabled",
                                "false")));
        RedisStore single =
            (RedisStore)
                new RedisStoreFactory()
                    .create(
                        ConfigLookup.of(
                            Map.of(
                                "limiter.redis.url", server.url(),
                                "limiter.redis.decision-timeout", "2s",
                                "limiter.redis.socket-timeout", "2s",
                                "limiter.redis.pipeline.enabled", "true",
                                "limiter.redis.pipeline.max-batch", "1")))) {
      assertThat(((DirectTransport) direct.transport()).pipeline()).isNull();
      Policy policy = Policy.tokenBucket("keys", Limit.bucket(1, Duration.ofHours(1), 100_000));
      List<Long> verified =
          onThreads(
              8,
              () -> {
                long n = 0;
                String key = "hot" + Thread.currentThread().getId(); // no same-key groups
                for (int i = 0; i < 200; i++) {
                  n += single.decide(policy, key, 1).isVerified() ? 1 : 0;
                }
                return n;
              });
      assertThat(verified).containsOnly(200L);
      PipelineDispatcher dispatcher = dispatcher(single);
      assertThat(dispatcher.largestBatch.get()).isEqualTo(1);
      assertThat(dispatcher.batches.sum()).isEqualTo(1_600);
    }
  }

  @Test
  void autoModeCallsDirectlyWhileAloneAndQueuesBehindACallInFlight() throws Exception {
    RedisStore store = autoStore(1);
    PipelineDispatcher dispatcher = dispatcher(store);
    Policy policy =
        Policy.tokenBucket("auto", Limit.bucket(1, Duration.ofHours(1), 1_000))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    Await.until(
        "the pool's connection open",
        Duration.ofSeconds(10),
        () -> ((DirectTransport) store.transport()).idleConnections() == 1);

    // A lone caller finds the connection idle every time: no pipeline
    for (int i = 0; i < 50; i++) {
      assertThat(store.decide(policy, "lone", 1).isVerified()).isTrue();
    }
    assertThat(dispatcher.calls.sum()).isZero();

    // A call in flight (the server frozen under it): callers on other keys queue
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<Decision>> decisions = new ArrayList<>();
    server.freeze();
    try {
      decisions.add(pool.submit(() -> store.decide(policy, "first", 1)));
      Await.until(
          "the connection in use",
          Duration.ofSeconds(10),
          () -> ((DirectTransport) store.transport()).idleConnections() == 0);
      for (int i = 0; i < 3; i++) {
        String key = "queued-" + i;
        decisions.add(pool.submit(() -> store.decide(policy, key, 1)));
      }
      Await.until("3 calls queued", Duration.ofSeconds(10), () -> dispatcher.queued());
    } finally {
      server.thaw();
    }
    for (Future<Decision> d : decisions) {
      assertThat(d.get().isVerified()).isTrue();
    }
    pool.shutdownNow();
    assertThat(dispatcher.calls.sum()).as("the queued calls went out pipelined").isEqualTo(3);

    // The queue drained: a lone caller goes straight out again
    for (int i = 0; i < 50; i++) {
      assertThat(store.decide(policy, "lone", 1).isVerified()).isTrue();
    }
    assertThat(dispatcher.calls.sum()).isEqualTo(3);
  }

  @Test
  void autoModeKeepsFourPipelinesInFlightAndSendsTwoCallsStraightOut() throws Exception {
    RedisStore store = autoStore(8);
    DirectTransport transport = (DirectTransport) store.transport();
    PipelineDispatcher dispatcher = dispatcher(store);
    Policy policy =
        Policy.tokenBucket("turns", Limit.bucket(1, Duration.ofHours(1), 1_000))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    Await.until(
        "the first connection open",
        Duration.ofSeconds(10),
        () -> transport.idleConnections() == 1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Decision>> decisions = new ArrayList<>();
    try {
      // The server frozen under a call out straight: the next callers find no idle connection, so
      // each takes a pipeline of its own, on a new connection, up to four in flight at once; the
      // one after them waits in the queue.
      server.freeze();
      try {
        decisions.add(pool.submit(() -> store.decide(policy, "straight", 1)));
        Await.until("the call out", Duration.ofSeconds(10), () -> transport.idleConnections() == 0);
        assertThat(dispatcher.outStraight()).isEqualTo(1);
        for (int i = 1; i <= DispatchMode.AUTO_PIPELINES; i++) {
          String key = "turn-" + i;
          decisions.add(pool.submit(() -> store.decide(policy, key, 1)));
          long batches = i;
          Await.until(
              i + " pipelines in flight",
              Duration.ofSeconds(10),
              () -> dispatcher.batches.sum() == batches);
        }
        decisions.add(pool.submit(() -> store.decide(policy, "queued", 1)));
        Await.until("a call queued", Duration.ofSeconds(10), dispatcher::queued);
        assertThat(dispatcher.batches.sum()).isEqualTo(DispatchMode.AUTO_PIPELINES);
      } finally {
        server.thaw();
      }
      for (Future<Decision> d : decisions) {
        assertThat(d.get().isVerified()).isTrue();
      }
      // Each decision ran once; the queued one in a pipeline of its own, once a turn was free.
      assertThat(scriptRuns()).isEqualTo(DispatchMode.AUTO_PIPELINES + 2);
      assertThat(dispatcher.batches.sum()).isGreaterThan(DispatchMode.AUTO_PIPELINES);

      // With connections idle, two calls go straight out at once; the third queues.
      Await.until(
          "connections idle again",
          Duration.ofSeconds(10),
          () -> transport.idleConnections() >= DispatchMode.STRAIGHT_OUT + 1);
      decisions.clear();
      server.freeze();
      try {
        for (int i = 1; i <= DispatchMode.STRAIGHT_OUT; i++) {
          String key = "lane-" + i;
          decisions.add(pool.submit(() -> store.decide(policy, key, 1)));
          int out = i;
          Await.until(
              i + " out straight", Duration.ofSeconds(10), () -> dispatcher.outStraight() == out);
        }
        long batches = dispatcher.batches.sum();
        decisions.add(pool.submit(() -> store.decide(policy, "third", 1)));
        Await.until(
            "the third pipelined",
            Duration.ofSeconds(10),
            () -> dispatcher.batches.sum() == batches + 1);
        assertThat(dispatcher.outStraight()).isEqualTo(DispatchMode.STRAIGHT_OUT);
      } finally {
        server.thaw();
      }
      for (Future<Decision> d : decisions) {
        assertThat(d.get().isVerified()).isTrue();
      }
      assertThat(scriptRuns()).isEqualTo(DispatchMode.AUTO_PIPELINES + 5);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void autoModeSendsALoneCallStraightOutAndPipelinesConcurrentOnes() throws Exception {
    RedisStore store = autoStore(8);
    PipelineDispatcher dispatcher = dispatcher(store);
    // A bucket of 100, refilling 1 per hour, on each thread's key: exactly 800 of 1 600 pass. A
    // key per thread, because calls on one key wait for each other (same-key groups, GroupsTest).
    Policy policy =
        Policy.tokenBucket("lane", Limit.bucket(1, Duration.ofHours(1), 100))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    List<long[]> counts =
        onThreads(
            8,
            () -> {
              String key = "lane-" + Thread.currentThread().getId();
              long[] allowedAndVerified = new long[2];
              for (int i = 0; i < 200; i++) {
                Decision d = store.decide(policy, key, 1);
                allowedAndVerified[0] += d.isAllowed() ? 1 : 0;
                allowedAndVerified[1] += d.isVerified() ? 1 : 0;
              }
              return allowedAndVerified;
            });
    assertThat(counts.stream().mapToLong(c -> c[1]).sum()).isEqualTo(1_600);
    assertThat(counts.stream().mapToLong(c -> c[0]).sum()).isEqualTo(800);
    // Every decision ran once, straight out or pipelined; calls that met another under way
    // queued, though the pool has room for a connection each. (Which went straight out depends on
    // the scheduler: a caller that finds the lane free but no idle connection queues too.)
    assertThat(scriptRuns()).isEqualTo(1_600);
    long pipelined = dispatcher.calls.sum();
    assertThat(pipelined).as("concurrent calls shared pipelines").isPositive();

    // Alone again, a caller goes straight out: no call joins a pipeline.
    for (int i = 0; i < 50; i++) {
      assertThat(store.decide(policy, "alone", 1).isVerified()).isTrue();
    }
    assertThat(scriptRuns()).isEqualTo(1_650);
    assertThat(dispatcher.calls.sum()).isEqualTo(pipelined);
  }

  /**
   * The script runs Redis counted: EVALSHAs that ran, plus the EVALs that load a script after a
   * NOSCRIPT (a decision racing the start-up load gets one, and its EVALSHA fails without running).
   */
  private long scriptRuns() {
    Map<String, RedisServer.CommandStats> stats = server.commandStats();
    RedisServer.CommandStats evalsha = stats.get("evalsha");
    RedisServer.CommandStats eval = stats.get("eval");
    long ran =
        evalsha == null ? 0 : evalsha.calls() - evalsha.failedCalls() - evalsha.rejectedCalls();
    return ran + (eval == null ? 0 : eval.calls());
  }
}
