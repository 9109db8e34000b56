package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.CalendarQuotaContract;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/** Calendar quotas on a real standalone Redis and a real Redis Cluster, in caller-time mode. */
@ExtendWith(RedisExtension.class)
class RedisCalendarQuotaTest {

  @Nested
  class Standalone extends CalendarQuotaContract {
    private RedisServer server;

    @BeforeEach
    void server(RedisServer shared) {
      this.server = shared;
    }

    @Override
    protected RateLimitStore createStore(NanoClock clock, Clock wallClock) {
      return RedisStandaloneContractTest.standalone(server, clock, wallClock);
    }
  }

  @Nested
  class Cluster extends CalendarQuotaContract {
    private RedisCluster cluster;

    @BeforeEach
    void cluster(RedisCluster shared) {
      this.cluster = shared;
    }

    @Override
    protected RateLimitStore createStore(NanoClock clock, Clock wallClock) {
      return RedisStandaloneContractTest.cluster(cluster, clock, wallClock);
    }
  }
}
