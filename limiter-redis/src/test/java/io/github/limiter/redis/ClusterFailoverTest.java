package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A cluster of its own, whose master is killed under load. */
class ClusterFailoverTest {

  private static final Duration BUDGET = Duration.ofMillis(250);
  private static RedisCluster cluster;

  @BeforeAll
  static void start() {
    cluster = RedisCluster.start("failover");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void whenAMasterDiesItsReplicaTakesOverAndDecisionsResume() throws Exception {
    Policy open =
        Policy.tokenBucket("failover-open", Limit.bucket(1000, Duration.ofSeconds(1), 1_000_000));
    Policy closed = open.withFailureMode(FailureMode.FAIL_CLOSED);
    Policy closedNamed =
        new Policy("failover-closed", closed.algorithm(), closed.limits(), FailureMode.FAIL_CLOSED);
    try (RedisStore store =
        RedisStore.builder()
            .clusterNodes(cluster.seedList())
            .decisionTimeout(BUDGET)
            .socketTimeout(Duration.ofMillis(200))
            .connectTimeout(Duration.ofMillis(200))
            .breakerOpenDuration(Duration.ofMillis(500))
            .poolMaxTotal(8)
            .build()) {
      // Given keys whose master we know, and a script loaded on that master only
      Await.until(
          "verified decisions within 5 s of start",
          Duration.ofSeconds(5),
          () ->
              store.decide(open, "k", 1).isVerified()
                  & store.decide(closedNamed, "k", 1).isVerified());
      RedisServer master = cluster.masterOf(store.redisKey(open, "k", 0));
      List<RedisServer> replicas = cluster.replicasOf(master);
      assertThat(replicas).isNotEmpty();
      String sha = Scripts.decide(Algorithm.TOKEN_BUCKET, false).sha();
      for (RedisServer replica : replicas) {
        assertThat(replica.call("SCRIPT", "EXISTS", sha))
            .as("SCRIPT LOAD is not replicated")
            .isEqualTo(List.of(0L));
      }
      long killedAt;
      List<Load.Sample> samples;
      AtomicInteger turn = new AtomicInteger();
      try (Load load =
          new Load(
              4,
              20_000,
              () -> store.decide(turn.incrementAndGet() % 2 == 0 ? open : closedNamed, "k", 1))) {
        Await.until(
            "decisions under load before the failover",
            Duration.ofSeconds(10),
            () -> verifiedAfter(load.samples(), 0, 200));
        // When the master dies
        master.kill();
        killedAt = System.nanoTime();
        // Then decisions are verified again once a replica has taken over (and reloaded the script)
        Await.within(Duration.ofSeconds(15), () -> verifiedAfter(load.samples(), killedAt, 20));
        samples = load.samples();
        assertThat(load.thrown).as("no exception reaches the caller").isEmpty();
      }
      assertThat(verifiedAfter(samples, killedAt, 20))
          .as("verified decisions after the failover")
          .isTrue();
      // And while it failed over, each policy's failure mode decided
      List<Load.Sample> unverified =
          samples.stream().filter(s -> !s.decision().isVerified()).toList();
      assertThat(unverified)
          .isNotEmpty()
          .allSatisfy(
              s -> {
                Decision d = s.decision();
                if (d.policy().equals("failover-open")) {
                  assertThat(d.isAllowed()).isTrue();
                } else {
                  assertThat(d.outcome()).isEqualTo(Decision.Outcome.UNAVAILABLE);
                }
              });
      // And no decision waited past the budget at the 99th percentile
      assertThat(Duration.ofNanos(Load.percentile(samples, 0.99))).isLessThan(BUDGET);
      cluster.awaitHealthy(Duration.ofSeconds(10));
      assertThat(store.decide(open, "k", 1).isVerified()).isTrue();
    }
  }

  private static boolean verifiedAfter(List<Load.Sample> samples, long instant, int count) {
    return samples.stream().filter(s -> s.endedAt() > instant && s.decision().isVerified()).count()
        >= count;
  }
}
