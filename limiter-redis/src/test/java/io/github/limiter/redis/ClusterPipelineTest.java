package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pipelined decisions on Redis Cluster: one dispatcher per master, batches of several calls. */
class ClusterPipelineTest {

  private static final int THREADS = 16;
  private static RedisCluster cluster;

  @BeforeAll
  static void start() {
    cluster = RedisCluster.start("cluster-pipeline");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void concurrentCallersOnEachMasterShareRoundTripsAndAdmitExactlyTheLimit() throws Exception {
    Policy policy =
        Policy.tokenBucket("cluster-pipelined", Limit.bucket(1, Duration.ofHours(1), 100))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    try (RedisStore store =
        RedisStore.builder()
            .clusterNodes(cluster.seedList())
            // forced: in auto mode, calls queue only while no pooled connection is idle
            .pipeline(true)
            .decisionTimeout(Duration.ofSeconds(2))
            .socketTimeout(Duration.ofSeconds(2))
            .build()) {
      Await.until(
          "verified within 5 s of start",
          Duration.ofSeconds(5),
          () -> store.decide(policy, "warm", 1).isVerified());
      // 48 keys, 16 threads on 16 of them at a time (so that the masters see several calls at
      // once, not same-key groups; see GroupsTest), 200 decisions on each key: exactly 100 pass on
      // each
      List<String> hot = IntStream.range(0, 48).mapToObj(k -> "k" + k).toList();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<long[]>> futures = new ArrayList<>();
      try {
        for (int t = 0; t < THREADS; t++) {
          int me = t;
          futures.add(
              pool.submit(
                  () -> {
                    long[] allowedAndVerified = new long[2];
                    for (int i = 0; i < 9_600 / THREADS; i++) {
                      Decision d = store.decide(policy, hot.get((me + i) % hot.size()), 1);
                      allowedAndVerified[0] += d.isAllowed() ? 1 : 0;
                      allowedAndVerified[1] += d.isVerified() ? 1 : 0;
                    }
                    return allowedAndVerified;
                  }));
        }
        long allowed = 0;
        long verified = 0;
        for (Future<long[]> f : futures) {
          allowed += f.get()[0];
          verified += f.get()[1];
        }
        assertThat(verified).isEqualTo(THREADS * (9_600 / THREADS));
        assertThat(allowed).as("exactly each bucket's capacity").isEqualTo(4_800);
      } finally {
        pool.shutdownNow();
      }
      WorkerTransport transport = (WorkerTransport) store.transport();
      assertThat(transport.dispatchers()).isNotEmpty();
      assertThat(transport.dispatchers().values())
          .as("some master's batches held several calls")
          .anySatisfy(d -> assertThat(d.largestBatch.get()).isGreaterThan(1));
      long batches =
          transport.dispatchers().values().stream().mapToLong(d -> d.batches.sum()).sum();
      long calls = transport.dispatchers().values().stream().mapToLong(d -> d.calls.sum()).sum();
      assertThat(batches).as("fewer round trips than decisions").isLessThan(calls);
      assertThat(store.health().up()).isTrue();
    }
  }
}
