package io.github.limiter.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import io.github.bucket4j.redis.jedis.cas.JedisBasedProxyManager;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/**
 * Bucket4j's Jedis backend, as its documentation sets it up: a compare-and-swap proxy manager (read
 * the state, then a Lua compare-and-set; retried on conflict), keys expiring once refilled.
 */
final class Bucket4jRedis implements RedisLoad.Subject {

  private final RedisClient client;
  private final JedisBasedProxyManager<byte[]> proxies;
  private final BucketConfiguration configuration;
  private final ConcurrentHashMap<String, BucketProxy> buckets = new ConcurrentHashMap<>();

  Bucket4jRedis(String host, int port, int threads) {
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
            k ->
                proxies
                    .builder()
                    .build(("b4j:" + k).getBytes(StandardCharsets.UTF_8), () -> configuration));
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
