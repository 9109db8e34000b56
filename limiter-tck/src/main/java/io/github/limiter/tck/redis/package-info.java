/**
 * Real redis-server processes for tests of any module: {@link io.github.limiter.tck.redis.RedisServer}
 * (standalone, optionally TLS with {@link io.github.limiter.tck.redis.TlsCertificates}), {@link
 * io.github.limiter.tck.redis.RedisCluster} (three masters, three replicas) and the JUnit 5 {@link
 * io.github.limiter.tck.redis.RedisExtension} that shares one of each per run.
 *
 * <p>Servers bind to 127.0.0.1 on free ports (never 6379), keep nothing on disk, and are stopped by
 * their PID. redis-server and redis-cli come from the PATH, openssl too for TLS. The harness talks
 * to them over its own small RESP client, so it brings no Redis client library along.
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
