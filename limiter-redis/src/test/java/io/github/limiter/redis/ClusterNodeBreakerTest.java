package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One breaker per cluster node: a dead master degrades only its own slots (issue 17, blocker 4).
 * The cluster serves the slots it still covers ({@code cluster-require-full-coverage no}), as
 * docs/redis.md advises; with Redis's default, Redis itself refuses every key while a slot has no
 * master.
 */
class ClusterNodeBreakerTest {

  private static final Duration BUDGET = Duration.ofMillis(250);
  private static final Duration OPEN = Duration.ofMillis(500);
  private static RedisCluster cluster;

  @BeforeAll
  static void start() {
    cluster = RedisCluster.start("node-breaker", "--cluster-require-full-coverage", "no");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void keysOnHealthyMastersSeeNoFallbackWhileAnotherMasterIsDown() throws Exception {
    Policy policy =
        Policy.tokenBucket("node-breaker", Limit.bucket(1000, Duration.ofSeconds(1), 1_000_000))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    try (RedisStore store =
        RedisStore.builder()
            .clusterNodes(cluster.seedList())
            .decisionTimeout(BUDGET)
            .socketTimeout(Duration.ofMillis(200))
            .connectTimeout(Duration.ofMillis(200))
            .breakerOpenDuration(OPEN)
            .poolMaxTotal(8)
            .build()) {
      // Given one client key on each of the three masters
      Map<Integer, String> keyByMaster = new LinkedHashMap<>();
      for (int i = 0; keyByMaster.size() < 3; i++) {
        keyByMaster.putIfAbsent(
            cluster.masterOf(store.redisKey(policy, "user-" + i, 0)).port(), "user-" + i);
      }
      List<String> keys = new ArrayList<>(keyByMaster.values());
      String doomed = keys.get(0);
      List<String> healthy = keys.subList(1, 3);
      Await.until(
          "verified decisions within 5 s of start",
          Duration.ofSeconds(5),
          () -> keys.stream().allMatch(k -> store.decide(policy, k, 1).isVerified()));
      RedisServer master = cluster.masterOf(store.redisKey(policy, doomed, 0));
      RedisServer replica = cluster.replicasOf(master).get(0);
      long killedAt;
      long promotedAt;
      List<Load.Sample> onDoomed;
      List<Load.Sample> onHealthy;
      AtomicInteger turn = new AtomicInteger();
      try (Load doomedLoad = new Load(3, 30_000, () -> store.decide(policy, doomed, 1));
          Load healthyLoad =
              new Load(
                  3,
                  30_000,
                  () -> store.decide(policy, healthy.get(turn.incrementAndGet() % 2), 1))) {
        Await.until(
            "decisions under load before the master dies",
            Duration.ofSeconds(10),
            () -> doomedLoad.samples().size() >= 200 && healthyLoad.samples().size() >= 200);
        // When the master of the first key dies
        master.kill();
        killedAt = System.nanoTime();
        // And its replica is promoted
        Await.until(
            "replica promoted within 15 s",
            Duration.ofSeconds(15),
            () -> replica.info("replication", "role").equals("master"));
        promotedAt = System.nanoTime();
        // Then decisions on its slots reach the new master soon after
        long deadline = killedAt + Duration.ofSeconds(15).toNanos();
        Await.within(
            Duration.ofNanos(Math.max(0, deadline - System.nanoTime())),
            () -> firstVerified(doomedLoad.samples(), promotedAt) != 0);
        long resumedAt = firstVerified(doomedLoad.samples(), promotedAt);
        if (resumedAt != 0) {
          Await.until(
              "decisions on the failed-over slots after they resumed",
              Duration.ofSeconds(5),
              () ->
                  doomedLoad.samples().stream().filter(s -> s.endedAt() > resumedAt).count()
                      >= 200);
        }
        onDoomed = doomedLoad.samples();
        onHealthy = healthyLoad.samples();
        assertThat(doomedLoad.thrown).as("no exception reaches the caller").isEmpty();
        assertThat(healthyLoad.thrown).as("no exception reaches the caller").isEmpty();
      }
      long resumed = firstVerified(onDoomed, promotedAt);
      assertThat(resumed).as("a verified decision on the failed-over slots").isNotZero();
      assertThat(Duration.ofNanos(resumed - promotedAt))
          .as("new owner used after promotion")
          .isLessThan(Duration.ofSeconds(2));
      // And the dead master's key followed its failure mode in between
      assertThat(onDoomed)
          .anySatisfy(
              s -> {
                assertThat(s.decision().outcome()).isEqualTo(Decision.Outcome.UNAVAILABLE);
                assertThat(s.endedAt()).isGreaterThan(killedAt);
              });
      // And the dead master's breaker opened after its own failures: other masters' successes did
      // not reset its count, so few decisions waited out the budget (the first failures, and one
      // probe per open duration, per thread at most)
      long slow =
          onDoomed.stream()
              .filter(
                  s ->
                      s.endedAt() > killedAt
                          && s.endedAt() < promotedAt
                          && s.latencyNanos() >= BUDGET.toNanos() * 4 / 5)
              .count();
      long probes = (promotedAt - killedAt) / OPEN.toNanos() + 1;
      assertThat(slow)
          .as("decisions on the dead master that waited for it")
          .isLessThanOrEqualTo(5 + 3 + probes);
      // And keys on the healthy masters were never refused by a breaker: with one breaker for the
      // whole cluster, they fell back at once for as long as the dead master's breaker was open.
      // On this shared machine a rare decision may miss its budget while the cores are starved
      // (all load threads at the same instant); such a decision waited for Redis, so it must be
      // rare
      // and have taken the whole budget.
      assertThat(
              onHealthy.stream()
                  .filter(s -> s.endedAt() > killedAt && s.endedAt() < promotedAt)
                  .count())
          .as("decisions on healthy masters while the other was down")
          .isGreaterThan(100);
      List<Load.Sample> fellBack =
          onHealthy.stream().filter(s -> !s.decision().isVerified()).toList();
      assertThat(fellBack)
          .as("fallbacks on healthy masters")
          .hasSizeLessThanOrEqualTo(onHealthy.size() / 100)
          .allSatisfy(
              s ->
                  assertThat(Duration.ofNanos(s.latencyNanos()))
                      .as("tried Redis until the budget ran out")
                      .isGreaterThanOrEqualTo(BUDGET));
      assertThat(Duration.ofNanos(Load.percentile(onHealthy, 0.99))).isLessThan(BUDGET);
      assertThat(Duration.ofNanos(Load.percentile(onDoomed, 0.99))).isLessThan(BUDGET);
    }
  }

  /** When the first verified decision after {@code instant} ended, or 0. */
  private static long firstVerified(List<Load.Sample> samples, long instant) {
    return samples.stream()
        .filter(s -> s.endedAt() > instant && s.decision().isVerified())
        .mapToLong(Load.Sample::endedAt)
        .min()
        .orElse(0);
  }
}
