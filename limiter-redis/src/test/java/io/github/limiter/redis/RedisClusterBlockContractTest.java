package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.UpstreamBlockContract;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisExtension;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** Upstream blocks on a real 6-node Redis Cluster, in caller-time mode, at 1 µs resolution. */
@ExtendWith(RedisExtension.class)
class RedisClusterBlockContractTest extends UpstreamBlockContract {

  private RedisCluster cluster;

  @BeforeEach
  void cluster(RedisCluster shared) {
    this.cluster = shared;
  }

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    return RedisStandaloneContractTest.forContract(
            RedisStore.builder().clusterNodes(cluster.seedList()), clock)
        .poolMaxTotal(8)
        .socketTimeout(Duration.ofSeconds(1))
        .build();
  }

  @Override
  protected long tickNanos() {
    return 1_000;
  }
}
