package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
class ManyNodesTest {

  @Test
  void fourNodesWithSixteenThreadsEachAdmitExactlyTheCapacityOfOneKey(RedisServer server)
      throws Exception {
    // Given 4 stores with their own pools, standing for 4 application nodes, sharing one Redis
    String prefix = "nodes:" + UUID.randomUUID() + ":";
    Policy policy = Policy.tokenBucket("hot", Limit.bucket(1, Duration.ofDays(1), 500));
    List<RedisStore> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(
          RedisStore.builder()
              .url(server.url())
              .keyPrefix(prefix)
              .poolMaxTotal(16)
              .decisionTimeout(Duration.ofSeconds(2))
              .socketTimeout(Duration.ofSeconds(2))
              .build());
    }
    ExecutorService threads = Executors.newFixedThreadPool(64);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<int[]>> results = new ArrayList<>();
      for (RedisStore node : nodes) {
        for (int t = 0; t < 16; t++) {
          results.add(
              threads.submit(
                  () -> {
                    start.await();
                    int admitted = 0;
                    int unverified = 0;
                    for (int i = 0; i < 15; i++) {
                      Decision d = node.decide(policy, "one-key", 1);
                      admitted += d.isAllowed() ? 1 : 0;
                      unverified += d.isVerified() ? 0 : 1;
                    }
                    return new int[] {admitted, unverified};
                  }));
        }
      }
      // When 960 requests race for 500 permits
      start.countDown();
      int admitted = 0;
      int unverified = 0;
      for (Future<int[]> r : results) {
        int[] counts = r.get(60, TimeUnit.SECONDS);
        admitted += counts[0];
        unverified += counts[1];
      }
      // Then exactly 500 are admitted, every one decided by Redis
      assertThat(unverified).isZero();
      assertThat(admitted).isEqualTo(500);
    } finally {
      threads.shutdownNow();
      nodes.forEach(RedisStore::close);
    }
  }
}
