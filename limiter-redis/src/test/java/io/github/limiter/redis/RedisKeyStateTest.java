package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.KeyStateContract;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A key's state read by the peek scripts on a real standalone Redis and a real Redis Cluster, in
 * caller-time mode.
 */
@ExtendWith(RedisExtension.class)
class RedisKeyStateTest {

  @Nested
  class Standalone extends KeyStateContract {
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
  class Cluster extends KeyStateContract {
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
