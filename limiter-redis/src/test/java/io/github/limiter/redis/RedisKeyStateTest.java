package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.KeyStateContract;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** A key's state read on a real Redis, in caller-time mode, by the peek scripts. */
@ExtendWith(RedisExtension.class)
class RedisKeyStateTest extends KeyStateContract {

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
}
