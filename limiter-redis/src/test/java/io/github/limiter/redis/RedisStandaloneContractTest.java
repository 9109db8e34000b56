package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.spi.RateLimitStore;
import io.github.limiter.tck.RateLimitStoreContract;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The contract on a real standalone Redis, in caller-time mode, at 1 µs resolution. */
@ExtendWith(RedisExtension.class)
class RedisStandaloneContractTest extends RateLimitStoreContract {

  private static final AtomicInteger STORES = new AtomicInteger();
  private RedisServer server;

  @BeforeEach
  void server(RedisServer shared) {
    this.server = shared;
  }

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    // A prefix per store: each test starts from empty keys.
    return RedisStore.builder()
        .url(server.url())
        .keyPrefix("tck:" + ProcessHandle.current().pid() + ":" + STORES.incrementAndGet() + ":")
        .callerClock(clock)
        .decisionTimeout(java.time.Duration.ofSeconds(2))
        .socketTimeout(java.time.Duration.ofSeconds(2))
        .build();
  }

  @Override
  protected long tickNanos() {
    return 1_000;
  }
}
