package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Concurrent decisions on a hot key go out in same-key groups: fewer script calls than decisions,
 * and exactly the admissions of deciding them one at a time: every permit of the window is given
 * once, each admission leaving a distinct count, the rest refused. A server of its own, since the
 * counts are server-wide.
 */
class GroupsTest {

  private static final int THREADS = 32;
  private static final int EACH = 150;

  @Test
  void aHotKeyIsDecidedInGroupsThatAdmitExactlyTheLimit() throws Exception {
    long limit = 1_000;
    Policy policy =
        new Policy(
            "hot",
            io.github.limiter.Algorithm.FIXED_WINDOW,
            List.of(Limit.of(limit, Duration.ofHours(1))),
            FailureMode.FAIL_CLOSED);
    try (RedisServer server = RedisServer.start("groups");
        RedisStore store =
            RedisStore.builder()
                .url(server.url())
                .decisionTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(5))
                .build()) {
      store.decide(policy, "warm-up", 1); // the script loaded, the pool warm
      long before = evalsha(server);
      ConcurrentLinkedQueue<Decision> decisions = new ConcurrentLinkedQueue<>();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < EACH; i++) {
                    decisions.add(store.decide(policy, "hot-key", 1));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      long calls = evalsha(server) - before;

      assertThat(decisions).hasSize(THREADS * EACH);
      List<Long> left =
          decisions.stream().filter(Decision::isAllowed).map(Decision::remaining).sorted().toList();
      // one admission for each permit of the window, each leaving one less
      assertThat(left).hasSize((int) limit);
      for (int m = 0; m < limit; m++) {
        assertThat(left.get(m)).isEqualTo(m);
      }
      assertThat(decisions.stream().filter(d -> !d.isAllowed()))
          .allSatisfy(d -> assertThat(d.retryAfterNanos()).isPositive())
          .hasSize(THREADS * EACH - (int) limit);
      assertThat(calls).isPositive().isLessThan(THREADS * EACH);
    }
  }

  private static long evalsha(RedisServer server) {
    RedisServer.CommandStats stats = server.commandStats().get("evalsha");
    return stats == null ? 0 : stats.calls();
  }
}
