package io.github.limiter.redis;

import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.spi.StoreFactory;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.SslOptions;

/**
 * {@code limiter.store=redis}: builds a {@link RedisStore} from the {@code limiter.redis.*} keys
 * (see the configuration table in the README). Every bad value fails here, at start-up, naming the
 * key and the value.
 */
public final class RedisStoreFactory implements StoreFactory {

  public static final String PREFIX = "limiter.redis.";
  public static final String URL = PREFIX + "url";
  public static final String CLUSTER_NODES = PREFIX + "cluster-nodes";
  public static final String USER = PREFIX + "user";
  public static final String PASSWORD = PREFIX + "password";
  public static final String TLS = PREFIX + "tls";
  public static final String TRUSTSTORE = PREFIX + "tls.truststore";
  public static final String TRUSTSTORE_PASSWORD = PREFIX + "tls.truststore-password";
  public static final String KEYSTORE = PREFIX + "tls.keystore";
  public static final String KEYSTORE_PASSWORD = PREFIX + "tls.keystore-password";
  public static final String KEY_PREFIX = PREFIX + "key-prefix";
  public static final String CONNECT_TIMEOUT = PREFIX + "connect-timeout";
  public static final String SOCKET_TIMEOUT = PREFIX + "socket-timeout";
  public static final String DECISION_TIMEOUT = PREFIX + "decision-timeout";
  public static final String POOL_MAX_TOTAL = PREFIX + "pool.max-total";
  public static final String LOCAL_NODES = PREFIX + "local-nodes";
  public static final String BREAKER_FAILURE_THRESHOLD = PREFIX + "breaker.failure-threshold";
  public static final String BREAKER_OPEN_DURATION = PREFIX + "breaker.open-duration";
  public static final String POOL_IDLE_CHECK_INTERVAL = PREFIX + "pool.idle-check-interval";
  public static final String PIPELINE_ENABLED = PREFIX + "pipeline.enabled";
  public static final String PIPELINE_MAX_BATCH = PREFIX + "pipeline.max-batch";
  public static final String CONCURRENCY_LEASE = PREFIX + "concurrency-lease";

  @Override
  public String name() {
    return "redis";
  }

  @Override
  public Set<String> keys() {
    return Set.of(
        URL,
        CLUSTER_NODES,
        USER,
        PASSWORD,
        TLS,
        TRUSTSTORE,
        TRUSTSTORE_PASSWORD,
        KEYSTORE,
        KEYSTORE_PASSWORD,
        KEY_PREFIX,
        CONNECT_TIMEOUT,
        SOCKET_TIMEOUT,
        DECISION_TIMEOUT,
        POOL_MAX_TOTAL,
        LOCAL_NODES,
        BREAKER_FAILURE_THRESHOLD,
        BREAKER_OPEN_DURATION,
        POOL_IDLE_CHECK_INTERVAL,
        PIPELINE_ENABLED,
        PIPELINE_MAX_BATCH,
        CONCURRENCY_LEASE);
  }

  @Override
  public RateLimitStore create(ConfigLookup config) {
    return builder(config).build();
  }

  /** The builder the keys describe, for callers who want to add to it before building. */
  public static RedisStoreBuilder builder(ConfigLookup lookup) {
    ConfigReader config = new ConfigReader(lookup);
    RedisStoreBuilder b = RedisStore.builder();
    Optional<String> url = config.text(URL);
    Optional<String> nodes = config.text(CLUSTER_NODES);
    if (url.isPresent() && nodes.isPresent()) {
      throw new ConfigException(
          CLUSTER_NODES,
          "set either "
              + URL
              + " or "
              + CLUSTER_NODES
              + ", not both; was '"
              + nodes.get()
              + "' with "
              + URL
              + "='"
              + url.get()
              + "'");
    }
    if (url.isEmpty() && nodes.isEmpty()) {
      throw new ConfigException(
          URL,
          "expected redis://host:port (or " + CLUSTER_NODES + " for Redis Cluster), was unset");
    }
    set(config, URL, text -> text, b::url);
    set(config, CLUSTER_NODES, text -> text, b::clusterNodes);
    set(config, USER, text -> text, b::user);
    lookup.get(PASSWORD).ifPresent(b::password);
    set(config, TLS, ConfigReader::parseBoolean, b::tls);
    Optional<String> truststore = config.text(TRUSTSTORE);
    Optional<String> keystore = config.text(KEYSTORE);
    if (truststore.isPresent() || keystore.isPresent()) {
      SslOptions.Builder ssl = SslOptions.builder();
      truststore.ifPresent(
          path -> {
            char[] password = lookup.get(TRUSTSTORE_PASSWORD).map(String::toCharArray).orElse(null);
            ssl.truststore(store(TRUSTSTORE, TRUSTSTORE_PASSWORD, path, password, false), password);
          });
      keystore.ifPresent(
          path -> {
            char[] password = lookup.get(KEYSTORE_PASSWORD).map(String::toCharArray).orElse(null);
            ssl.keystore(store(KEYSTORE, KEYSTORE_PASSWORD, path, password, true), password);
          });
      b.sslOptions(ssl.build());
    }
    lookup.get(KEY_PREFIX).ifPresent(v -> setValue(KEY_PREFIX, v, v, b::keyPrefix));
    set(config, CONNECT_TIMEOUT, Limit::parseDuration, b::connectTimeout);
    set(config, SOCKET_TIMEOUT, Limit::parseDuration, b::socketTimeout);
    set(config, DECISION_TIMEOUT, Limit::parseDuration, b::decisionTimeout);
    set(config, POOL_MAX_TOTAL, RedisStoreFactory::parseInt, b::poolMaxTotal);
    set(config, POOL_IDLE_CHECK_INTERVAL, Limit::parseDuration, b::idleCheckInterval);
    set(config, LOCAL_NODES, RedisStoreFactory::parseInt, b::localNodes);
    set(config, BREAKER_FAILURE_THRESHOLD, RedisStoreFactory::parseInt, b::breakerFailureThreshold);
    set(config, BREAKER_OPEN_DURATION, Limit::parseDuration, b::breakerOpenDuration);
    set(config, CONCURRENCY_LEASE, Limit::parseDuration, b::concurrencyHold);
    // Lease mode is a policy's setting (limiter.policy.NAME.lease), read by the one config model;
    // its problems are the adapter's to report, with every other.
    LimiterConfig.read(lookup, new ArrayList<>()).policies().values().stream()
        .filter(policy -> policy.lease().enabled())
        .forEach(
            policy -> {
              b.lease(policy.name(), policy.lease());
              // each plan is a policy of its own, leased alike
              policy
                  .plans()
                  .byName()
                  .values()
                  .forEach(plan -> b.lease(plan.name(), policy.lease()));
            });
    set(config, PIPELINE_ENABLED, ConfigReader::parseBoolean, b::pipeline);
    set(config, PIPELINE_MAX_BATCH, RedisStoreFactory::parseInt, b::pipelineMaxBatch);
    return b;
  }

  /**
   * Parses {@code key}'s value, if set, and hands it to {@code setter}; either failure names key
   * and value.
   */
  private static <T> void set(
      ConfigReader config, String key, Function<String, T> parser, Consumer<T> setter) {
    config
        .text(key)
        .ifPresent(value -> setValue(key, value, config.parse(key, value, parser), setter));
  }

  private static <T> void setValue(String key, String value, T parsed, Consumer<T> setter) {
    try {
      setter.accept(parsed);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          key, e.getMessage() + (e.getMessage().contains(value) ? "" : ", was '" + value + "'"), e);
    }
  }

  private static int parseInt(String text) {
    long n = ConfigReader.parseLong(text);
    if (n != (int) n) {
      throw new IllegalArgumentException(
          "expected a whole number up to " + Integer.MAX_VALUE + ", was '" + text + "'");
    }
    return (int) n;
  }

  /**
   * The trust or key store file at {@code path}, opened once here so that a missing file, a wrong
   * password or a key store without a key fails at start-up, not at the first connection.
   */
  private static File store(
      String key, String passwordKey, String path, char[] password, boolean needsKey) {
    File file = new File(path);
    String what = needsKey ? "key store" : "trust store";
    if (!file.isFile()) {
      throw new ConfigException(
          key, "expected a readable " + what + " file (PKCS12 or JKS), was '" + path + "'");
    }
    KeyStore store;
    try (InputStream in = new FileInputStream(file)) {
      store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(in, password);
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(
          key,
          "cannot read the "
              + what
              + " with "
              + passwordKey
              + " ("
              + e.getMessage()
              + "), was '"
              + path
              + "'",
          e);
    }
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (needsKey ? store.isKeyEntry(alias) : store.isCertificateEntry(alias)) {
          return file;
        }
      }
    } catch (KeyStoreException e) {
      throw new ConfigException(
          key, "cannot read the " + what + " (" + e.getMessage() + "), was '" + path + "'", e);
    }
    throw new ConfigException(
        key,
        "the "
            + what
            + " holds no "
            + (needsKey
                ? "private key and certificate"
                : "trusted certificate (Java trusts only those imported with keytool -importcert)")
            + ", was '"
            + path
            + "'");
  }
}
