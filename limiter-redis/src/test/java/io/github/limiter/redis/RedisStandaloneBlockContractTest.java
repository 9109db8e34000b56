package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.UpstreamBlockContract;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** Upstream blocks on a real standalone Redis, in caller-time mode, at 1 µs resolution. */
@ExtendWith(RedisExtension.class)
class RedisStandaloneBlockContractTest extends UpstreamBlockContract {

  private RedisServer server;

  @BeforeEach
  void server(RedisServer shared) {
    this.server = shared;
  }

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    return RedisStandaloneContractTest.forContract(RedisStore.builder().url(server.url()), clock)
        .socketTimeout(Duration.ofSeconds(2))
        .build();
  }

  @Override
  protected long tickNanos() {
    return 1_000;
  }
}
