package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.RateLimitStoreContract;
import io.github.limiter.tck.redis.RedisCluster;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
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

  /**
   * A store for the contract: caller time from {@code clock}, generous timeouts, and a prefix of
   * its own, so that each test starts from empty keys on a shared server.
   */
  static RedisStoreBuilder forContract(RedisStoreBuilder builder, NanoClock clock) {
    return builder
        .keyPrefix("tck:" + ProcessHandle.current().pid() + ":" + STORES.incrementAndGet() + ":")
        .callerClock(clock)
        .decisionTimeout(Duration.ofSeconds(2))
        // The pure function's permits are held for ever; the longest hold outlasts every trace.
        .concurrencyHold(Duration.ofHours(1));
  }

  /**
   * A store for a contract on standalone {@code server}, its calendar quotas' periods placed at
   * {@code wallClock}'s instant.
   */
  static RateLimitStore standalone(RedisServer server, NanoClock clock, Clock wallClock) {
    return forContract(RedisStore.builder().url(server.url()), clock)
        .wallClock(wallClock)
        .socketTimeout(Duration.ofSeconds(2))
        .build();
  }

  /**
   * A store for a contract on {@code cluster}, its calendar quotas' periods placed at {@code
   * wallClock}'s instant.
   */
  static RateLimitStore cluster(RedisCluster cluster, NanoClock clock, Clock wallClock) {
    return forContract(RedisStore.builder().clusterNodes(cluster.seedList()), clock)
        .wallClock(wallClock)
        .poolMaxTotal(8)
        .socketTimeout(Duration.ofSeconds(1))
        .build();
  }

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    return forContract(RedisStore.builder().url(server.url()), clock)
        .socketTimeout(Duration.ofSeconds(2))
        .build();
  }

  @Override
  protected long tickNanos() {
    return 1_000;
  }
}
