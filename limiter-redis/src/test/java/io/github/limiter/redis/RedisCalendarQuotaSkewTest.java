package io.github.limiter.redis;

import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.CalendarQuotaSkewContract;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calendar quotas on the server's {@code TIME}, with nodes whose clocks are ahead of Redis's and
 * behind it, on a real standalone Redis and a real Redis Cluster.
 */
@ExtendWith(RedisExtension.class)
class RedisCalendarQuotaSkewTest {

  /** The nodes of one run share their keys. */
  private static final String PREFIX = "skew:" + ProcessHandle.current().pid() + ":";

  /** An instant from the reply of {@code TIME}: seconds and microseconds. */
  static Instant time(RedisServer server) {
    List<?> time = (List<?>) server.call("TIME");
    return Instant.ofEpochSecond(
        Long.parseLong((String) time.get(0)), Long.parseLong((String) time.get(1)) * 1_000);
  }

  static Instant expiry(RedisServer server, String key) {
    return Instant.ofEpochMilli((Long) server.call("PEXPIRETIME", key));
  }

  @Nested
  class Standalone extends CalendarQuotaSkewContract {
    private RedisServer server;

    @BeforeEach
    void server(RedisServer shared) {
      this.server = shared;
    }

    @Override
    protected RateLimitStore createNode(Clock wallClock) {
      return RedisStore.builder()
          .url(server.url())
          .keyPrefix(PREFIX)
          .wallClock(wallClock)
          .decisionTimeout(Duration.ofSeconds(2))
          .socketTimeout(Duration.ofSeconds(2))
          .build();
    }

    @Override
    protected Instant serverTime() {
      return time(server);
    }

    @Override
    protected Instant forgetsAt(RateLimitStore node, Policy policy, String key, int index) {
      return expiry(server, ((RedisStore) node).redisKey(policy, key, index));
    }
  }

  @Nested
  class Cluster extends CalendarQuotaSkewContract {
    private RedisCluster cluster;

    @BeforeEach
    void cluster(RedisCluster shared) {
      this.cluster = shared;
    }

    @Override
    protected RateLimitStore createNode(Clock wallClock) {
      return RedisStore.builder()
          .clusterNodes(cluster.seedList())
          .keyPrefix(PREFIX)
          .wallClock(wallClock)
          .decisionTimeout(Duration.ofSeconds(2))
          .poolMaxTotal(8)
          .socketTimeout(Duration.ofSeconds(1))
          .build();
    }

    @Override
    protected Instant serverTime() {
      return time(cluster.live().get(0));
    }

    @Override
    protected Instant forgetsAt(RateLimitStore node, Policy policy, String key, int index) {
      String redisKey = ((RedisStore) node).redisKey(policy, key, index);
      return expiry(cluster.masterOf(redisKey), redisKey);
    }
  }
}
