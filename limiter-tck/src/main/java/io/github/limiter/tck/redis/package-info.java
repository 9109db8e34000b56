/**
 * Real redis-server processes for tests of any module: {@link
 * io.github.limiter.tck.redis.RedisServer} (standalone, optionally TLS with {@link
 * io.github.limiter.tck.redis.TlsCertificates}), {@link io.github.limiter.tck.redis.RedisCluster}
 * (three masters, three replicas) and the JUnit 5 {@link
 * io.github.limiter.tck.redis.RedisExtension} that shares one of each per run.
 *
 * <p>Servers bind to 127.0.0.1 on free ports (never 6379), keep nothing on disk, and are stopped by
 * their PID. redis-server comes from the PATH if there is one, else from {@code
 * org.signal:embedded-redis} (Redis 7.0.15, extracted to {@code target/redis/bin}); openssl comes
 * from the PATH for TLS. The harness talks to them over its own small RESP client, so it needs
 * neither redis-cli nor a Redis client library.
 *
 * <pre>{@code
 * <dependency>
 *   <groupId>io.github.limiter</groupId>
 *   <artifactId>limiter-tck</artifactId>
 *   <scope>test</scope>
 * </dependency>
 * }</pre>
 */
package io.github.limiter.tck.redis;
