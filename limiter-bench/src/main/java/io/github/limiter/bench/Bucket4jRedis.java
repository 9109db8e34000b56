package io.github.limiter.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.RemoteBucketBuilder;
import io.github.bucket4j.distributed.proxy.optimization.DelayParameters;
import io.github.bucket4j.distributed.proxy.optimization.Optimization;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import io.github.bucket4j.redis.jedis.cas.JedisBasedProxyManager;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/**
 * Bucket4j's Jedis backend, as its documentation sets it up: a compare-and-swap proxy manager (read
 * the state, then a Lua compare-and-set; retried on conflict), keys expiring once refilled. With an
 * {@link Optimization}: {@code Optimizations.batching()} (concurrent requests for one bucket merged
 * into one CAS) or {@code delaying(...)} (tokens consumed locally, synchronised with Redis at most
 * every {@link #DELAY_TOKENS} tokens or {@link #DELAY_TIMEOUT}), which over-admits by what is not
 * yet synchronised.
 */
final class Bucket4jRedis implements RedisLoad.Subject {

  /** Delaying: tokens a node may consume before it synchronises, 1 % of the limit. */
  static final long DELAY_TOKENS = Math.max(1, RedisPolicies.RATE / 100);

  /** Delaying: the longest a node goes without synchronising. */
  static final Duration DELAY_TIMEOUT = Duration.ofMillis(50);

  /** No optimisation, as the documentation sets it up. */
  static Bucket4jRedis plain(String host, int port, int threads) {
    return new Bucket4jRedis(host, port, threads, null);
  }

  static Bucket4jRedis batching(String host, int port, int threads) {
    return new Bucket4jRedis(host, port, threads, Optimizations.batching());
  }

  static Bucket4jRedis delaying(String host, int port, int threads) {
    return new Bucket4jRedis(
        host,
        port,
        threads,
        Optimizations.delaying(new DelayParameters(DELAY_TOKENS, DELAY_TIMEOUT)));
  }

  private final Optimization optimization;

  private final RedisClient client;
  private final JedisBasedProxyManager<byte[]> proxies;
  private final BucketConfiguration configuration;
  private final ConcurrentHashMap<String, BucketProxy> buckets = new ConcurrentHashMap<>();

  private Bucket4jRedis(String host, int port, int threads, Optimization optimization) {
    this.optimization = optimization;
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(threads + 2);
    pool.setMaxIdle(threads + 2);
    client = RedisClient.builder().hostAndPort(host, port).poolConfig(pool).build();
    proxies =
        Bucket4jJedis.casBasedBuilder(client)
            .expirationAfterWrite(
                ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                    Duration.ofSeconds(10)))
            .build();
    configuration =
        BucketConfiguration.builder()
            .addLimit(
                Bandwidth.builder()
                    .capacity(RedisPolicies.RATE)
                    .refillGreedy(RedisPolicies.RATE, Duration.ofSeconds(1))
                    .build())
            .build();
  }

  @Override
  public void prepare(String key) {
    bucket(key);
  }

  private BucketProxy bucket(String key) {
    BucketProxy bucket = buckets.get(key);
    return bucket != null
        ? bucket
        : buckets.computeIfAbsent(
            key,
            k -> {
              RemoteBucketBuilder<byte[]> builder = proxies.builder();
              if (optimization != null) {
                builder = builder.withOptimization(optimization);
              }
              return builder.build(
                  ("b4j:" + k).getBytes(StandardCharsets.UTF_8), () -> configuration);
            });
  }

  @Override
  public int decide(String key) {
    return bucket(key).tryConsume(1) ? ADMITTED : REJECTED;
  }

  @Override
  public void close() {
    client.close();
  }
}
