package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.UnifiedJedis;

/**
 * Same-key coalescing: a group decided in one script call equals the same requests decided one
 * after the other, for every algorithm, mixed costs and caller times; the group size is bounded;
 * and through the store, waiting decisions on one key go out together, exactly.
 */
class CoalescingTest {

  private static RedisServer server;

  @BeforeAll
  static void start() {
    server = RedisServer.start("coalescing");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A policy of one or two limits of {@code algorithm}, small enough to bind often. */
  private static Policy policy(Algorithm algorithm, Random random) {
    String name = "diff-" + algorithm.configName();
    if (algorithm == Algorithm.CONCURRENCY) {
      return Policy.concurrency(name, 5 + random.nextInt(20), Duration.ofSeconds(1));
    }
    List<Limit> limits = new ArrayList<>();
    int count = 1 + random.nextInt(2);
    for (int i = 0; i < count; i++) {
      long permits = 2 + random.nextInt(8);
      Duration period = Duration.ofMillis(50 + random.nextInt(400));
      limits.add(
          switch (algorithm) {
            case TOKEN_BUCKET, LEAKY_BUCKET ->
                Limit.bucket(permits, period, permits + random.nextInt(4));
            default -> Limit.of(permits, period);
          });
    }
    return new Policy(name, algorithm, limits, FailureMode.LOCAL);
  }

  /**
   * The differential: for each seed and algorithm, a random trace of groups (2 to 12 requests of 1
   * to 6 permits, caller times jittered around a clock that moves on by up to a period) decided
   * once as a group on one client key and once request by request on another. Every reply must be
   * the same, field by field.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 20261204})
  void aGroupDecidesExactlyAsTheSameRequestsOneAfterTheOther(long seed) {
    try (RedisStore store = RedisStore.builder().url(server.url()).pipeline(false).build()) {
      UnifiedJedis jedis = store.client();
      for (Algorithm algorithm : Algorithm.values()) {
        Random random = new Random(seed * 31 + algorithm.ordinal());
        Policy policy = policy(algorithm, random);
        CompiledPolicy c =
            new CompiledPolicy(
                policy, new KeyScheme("diff:" + seed + ":"), "node-1", 3_600_000_000_000L, "");
        List<String> serialKeys = c.keys("serial");
        List<String> groupKeys = c.keys("group");
        long now = 1_000_000_000L + random.nextInt(1_000_000);
        for (int step = 0; step < 60; step++) {
          now += random.nextInt(200_000);
          int size = 2 + random.nextInt(11);
          List<String> groupArgs = null;
          List<Object> serial = new ArrayList<>();
          for (int m = 0; m < size; m++) {
            String at = Long.toString(now + random.nextInt(2_000) - 1_000);
            long permits = 1 + random.nextInt(random.nextInt(4) == 0 ? 6 : 2);
            List<String> args = c.args(at, permits, "600000");
            serial.addAll((List<?>) Transport.evalsha(jedis, c.decide, serialKeys, args));
            if (groupArgs == null) {
              groupArgs = new ArrayList<>(args);
            } else {
              groupArgs.add(at);
              groupArgs.add(Long.toString(permits));
            }
          }
          Object grouped = Transport.evalsha(jedis, c.decide, groupKeys, groupArgs);
          assertThat(grouped)
              .as("%s, step %d, a group of %d", algorithm.configName(), step, size)
              .isEqualTo(serial);
          // and the same state left behind, living as long
          for (int i = 0; i < serialKeys.size(); i++) {
            String s = serialKeys.get(i);
            String g = groupKeys.get(i);
            assertThat(jedis.type(g)).isEqualTo(jedis.type(s));
            if (jedis.type(s).equals("string")) {
              assertThat(jedis.get(g))
                  .as("%s state, step %d", algorithm, step)
                  .isEqualTo(jedis.get(s));
            }
            // written after the serial key and read before it: the same TTL at least
            long groupTtl = jedis.pttl(g);
            long serialTtl = jedis.pttl(s);
            assertThat(groupTtl).isBetween(serialTtl - 1, serialTtl + 2_000);
          }
        }
      }
    }
  }

  @Test
  void aGroupUnderServerTimeAdmitsInArrivalOrderUpToTheCapacity() {
    try (RedisStore store = RedisStore.builder().url(server.url()).pipeline(false).build()) {
      Policy policy = Policy.tokenBucket("server-group", Limit.bucket(1, Duration.ofHours(1), 5));
      CompiledPolicy c = new CompiledPolicy(policy, new KeyScheme("server-group:"));
      List<String> args = new ArrayList<>(c.args("", 2, "0"));
      for (long permits : new long[] {2, 1, 1, 9}) {
        args.add("");
        args.add(Long.toString(permits));
      }
      List<?> reply = (List<?>) Transport.evalsha(store.client(), c.decide, c.keys("k"), args);
      List<Decision> decisions = new ArrayList<>();
      for (int i = 0; i < reply.size(); i += 6) {
        decisions.add(c.decision(reply.subList(i, i + 6)));
      }
      // 2 + 2 of 5, then 1 left: the 1 passes, the next 1 waits an hour, 9 exceeds the capacity
      assertThat(decisions)
          .extracting(Decision::outcome)
          .containsExactly(
              Decision.Outcome.ALLOWED,
              Decision.Outcome.ALLOWED,
              Decision.Outcome.ALLOWED,
              Decision.Outcome.LIMITED,
              Decision.Outcome.EXCEEDS_CAPACITY);
      assertThat(decisions).extracting(Decision::remaining).startsWith(3L, 1L, 0L);
      assertThat(decisions.get(3).retryAfter())
          .hasValueSatisfying(wait -> assertThat(wait).isGreaterThan(Duration.ofMinutes(59)));
    }
  }

  /**
   * While a call on the hot key is in flight (the server frozen), callers on it wait; once it
   * answers, they go out in groups of at most the bound, each with its own exact decision.
   */
  @Test
  void waitingDecisionsOnOneKeyGoOutInGroupsOfAtMostTheBound() throws Exception {
    int bound = 4;
    int waiting = 10;
    Policy policy =
        Policy.tokenBucket("bounded", Limit.bucket(1, Duration.ofHours(1), 7))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    try (RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .coalesceMaxGroup(bound)
            .decisionTimeout(Duration.ofSeconds(20))
            .socketTimeout(Duration.ofSeconds(20))
            .build()) {
      Coalescer coalescer = store.coalescer();
      assertThat(coalescer).as("coalescing is on by default").isNotNull();
      assertThat(store.decide(policy, "warm", 1).isVerified()).isTrue();
      ExecutorService pool = Executors.newFixedThreadPool(waiting + 1);
      List<Future<Decision>> decisions = new ArrayList<>();
      server.freeze();
      try {
        decisions.add(pool.submit(() -> store.decide(policy, "hot", 1)));
        Await.until(
            "the first call in flight", Duration.ofSeconds(10), () -> coalescer.lanes() == 1);
        for (int i = 0; i < waiting; i++) {
          decisions.add(pool.submit(() -> store.decide(policy, "hot", 1)));
        }
        Await.until(
            waiting + " callers waiting on the key",
            Duration.ofSeconds(10),
            () -> coalescer.waiting() == waiting);
      } finally {
        server.thaw();
      }
      List<Decision> all = new ArrayList<>();
      for (Future<Decision> d : decisions) {
        all.add(d.get());
      }
      pool.shutdownNow();
      assertThat(all).allSatisfy(d -> assertThat(d.isVerified()).isTrue());
      assertThat(all.stream().filter(Decision::isAllowed).count())
          .as("exactly the bucket's capacity")
          .isEqualTo(7);
      assertThat(all.stream().filter(Decision::isAllowed).map(Decision::remaining))
          .as("each caller its own remaining count")
          .containsExactlyInAnyOrder(6L, 5L, 4L, 3L, 2L, 1L, 0L);
      assertThat(coalescer.largestGroup.get()).isEqualTo(bound);
      // warm-up, the first call, then 10 waiting in groups of 4, 4 and 2
      assertThat(coalescer.groups.sum()).isEqualTo(1 + 1 + 3);
      assertThat(coalescer.grouped.sum()).isEqualTo(1 + 1 + waiting);
      assertThat(coalescer.lanes()).as("no key left behind").isZero();
    }
  }

  /**
   * Two plans (each a policy of its own) on the same client key, concurrent and of mixed costs:
   * each plan's decisions group among themselves only, and each plan admits exactly its capacity.
   */
  @Test
  void plansOnOneClientKeyStayApartAndExact() throws Exception {
    Policy gold =
        Policy.tokenBucket("gold", Limit.bucket(1, Duration.ofHours(1), 900))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    Policy free =
        Policy.fixedWindow("free", Limit.of(300, Duration.ofHours(1)))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    try (RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .keyPrefix("plans:")
            .decisionTimeout(Duration.ofSeconds(5))
            .socketTimeout(Duration.ofSeconds(5))
            .build()) {
      int threads = 12;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<long[]>> counts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Policy policy = t % 2 == 0 ? gold : free;
        long cost = 1 + t % 3;
        counts.add(
            pool.submit(
                () -> {
                  long[] c = new long[3];
                  for (int i = 0; i < 200; i++) {
                    Decision d = store.decide(policy, "tenant-1", cost);
                    c[policy == gold ? 0 : 1] += d.isAllowed() ? cost : 0;
                    c[2] += d.isVerified() ? 1 : 0;
                  }
                  return c;
                }));
      }
      long[] sum = new long[3];
      for (Future<long[]> f : counts) {
        for (int i = 0; i < 3; i++) {
          sum[i] += f.get()[i];
        }
      }
      pool.shutdownNow();
      assertThat(sum[2]).isEqualTo(threads * 200L);
      Decision goldLeft = store.decide(gold, "tenant-1", 1);
      Decision freeLeft = store.decide(free, "tenant-1", 1);
      assertThat(sum[0] + (goldLeft.isAllowed() ? goldLeft.remaining() + 1 : 0))
          .as("gold: admitted plus left")
          .isEqualTo(900);
      assertThat(sum[1] + (freeLeft.isAllowed() ? freeLeft.remaining() + 1 : 0))
          .as("free: admitted plus left")
          .isEqualTo(300);
      assertThat(store.coalescer().largestGroup.get()).isBetween(2, 64);
    }
  }

  /** Many threads on one hot key: exact, and fewer script calls than decisions. */
  @Test
  void concurrentDecisionsOnAHotKeyStayExactWithFewerScriptCalls() throws Exception {
    Policy policy =
        Policy.tokenBucket("hot-exact", Limit.bucket(1, Duration.ofHours(1), 3_000))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    try (RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .decisionTimeout(Duration.ofSeconds(5))
            .socketTimeout(Duration.ofSeconds(5))
            .build()) {
      int threads = 16;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<long[]>> counts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long cost = 1 + t % 3; // mixed costs
        counts.add(
            pool.submit(
                () -> {
                  long[] c = new long[2];
                  for (int i = 0; i < 300; i++) {
                    Decision d = store.decide(policy, "hot", cost);
                    c[0] += d.isAllowed() ? cost : 0;
                    c[1] += d.isVerified() ? 1 : 0;
                  }
                  return c;
                }));
      }
      long admitted = 0;
      long verified = 0;
      for (Future<long[]> f : counts) {
        admitted += f.get()[0];
        verified += f.get()[1];
      }
      pool.shutdownNow();
      assertThat(verified).isEqualTo(threads * 300L);
      // Costs of 1 to 3 against 3 000 permits that do not refill within the test: each permit
      // is either admitted or still in the bucket.
      Decision last = store.decide(policy, "hot", 1);
      long left = last.isAllowed() ? last.remaining() + 1 : 0;
      assertThat(admitted + left).as("admitted plus left").isEqualTo(3_000L);
      assertThat(left).isLessThan(3);
      Coalescer coalescer = store.coalescer();
      assertThat(coalescer.grouped.sum()).isEqualTo(threads * 300L + 1);
      assertThat(coalescer.groups.sum()).isLessThan(coalescer.grouped.sum());
      assertThat(coalescer.largestGroup.get()).isBetween(2, 64);
    }
  }
}
