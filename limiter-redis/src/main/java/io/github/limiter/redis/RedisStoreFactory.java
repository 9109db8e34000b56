package io.github.limiter.redis;

import io.github.limiter.Limit;
import io.github.limiter.ConfigException;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.RateLimitStore;
import io.github.limiter.spi.StoreFactory;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.SslOptions;

/**
 * {@code limiter.store=redis}: builds a {@link RedisStore} from the {@code limiter.redis.*} keys
 * (see the configuration table in the README). Every bad value fails here, at start-up, naming the key and the value.
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

  @Override
  public String name() {
    return "redis";
  }

  @Override
  public Set<String> keys() {
    return Set.of(URL, CLUSTER_NODES, USER, PASSWORD, TLS, TRUSTSTORE, TRUSTSTORE_PASSWORD, KEYSTORE,
        KEYSTORE_PASSWORD, KEY_PREFIX, CONNECT_TIMEOUT, SOCKET_TIMEOUT, DECISION_TIMEOUT, POOL_MAX_TOTAL, LOCAL_NODES,
        BREAKER_FAILURE_THRESHOLD, BREAKER_OPEN_DURATION);
  }

  @Override
  public RateLimitStore create(ConfigLookup config) {
    return builder(config).build();
  }

  /** The builder the keys describe, for callers who want to add to it before building. */
  public static RedisStore.Builder builder(ConfigLookup config) {
    RedisStore.Builder b = RedisStore.builder();
    Optional<String> url = value(config, URL);
    Optional<String> nodes = value(config, CLUSTER_NODES);
    if (url.isPresent() && nodes.isPresent()) {
      throw new ConfigException(CLUSTER_NODES, "set either " + URL + " or " + CLUSTER_NODES + ", not both; was '"
          + nodes.get() + "' with " + URL + "='" + url.get() + "'");
    }
    if (url.isEmpty() && nodes.isEmpty()) {
      throw new ConfigException(URL, "expected redis://host:port (or " + CLUSTER_NODES + " for Redis Cluster), was unset");
    }
    url.ifPresent(v -> apply(URL, v, b::url));
    nodes.ifPresent(v -> apply(CLUSTER_NODES, v, b::clusterNodes));
    value(config, USER).ifPresent(v -> apply(USER, v, b::user));
    config.get(PASSWORD).ifPresent(b::password);
    value(config, TLS).ifPresent(v -> b.tls(bool(TLS, v)));
    Optional<String> truststore = value(config, TRUSTSTORE);
    Optional<String> keystore = value(config, KEYSTORE);
    if (truststore.isPresent() || keystore.isPresent()) {
      SslOptions.Builder ssl = SslOptions.builder();
      truststore.ifPresent(path -> {
        char[] password = config.get(TRUSTSTORE_PASSWORD).map(String::toCharArray).orElse(null);
        ssl.truststore(store(TRUSTSTORE, TRUSTSTORE_PASSWORD, path, password, false), password);
      });
      keystore.ifPresent(path -> {
        char[] password = config.get(KEYSTORE_PASSWORD).map(String::toCharArray).orElse(null);
        ssl.keystore(store(KEYSTORE, KEYSTORE_PASSWORD, path, password, true), password);
      });
      b.sslOptions(ssl.build());
    }
    config.get(KEY_PREFIX).ifPresent(v -> apply(KEY_PREFIX, v, b::keyPrefix));
    duration(config, CONNECT_TIMEOUT, b::connectTimeout);
    duration(config, SOCKET_TIMEOUT, b::socketTimeout);
    duration(config, DECISION_TIMEOUT, b::decisionTimeout);
    integer(config, POOL_MAX_TOTAL, b::poolMaxTotal);
    integer(config, LOCAL_NODES, b::localNodes);
    integer(config, BREAKER_FAILURE_THRESHOLD, b::breakerFailureThreshold);
    duration(config, BREAKER_OPEN_DURATION, b::breakerOpenDuration);
    return b;
  }

  /**
   * The trust or key store file at {@code path}, opened once here so that a missing file, a wrong
   * password or a key store without a key fails at start-up, not at the first connection.
   */
  private static File store(String key, String passwordKey, String path, char[] password, boolean needsKey) {
    File file = new File(path);
    String what = needsKey ? "key store" : "trust store";
    if (!file.isFile()) {
      throw new ConfigException(key, "expected a readable " + what + " file (PKCS12 or JKS), was '" + path + "'");
    }
    KeyStore store;
    try (InputStream in = new FileInputStream(file)) {
      store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(in, password);
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(key, "cannot read the " + what + " with " + passwordKey + " (" + e.getMessage()
          + "), was '" + path + "'", e);
    }
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (needsKey ? store.isKeyEntry(alias) : store.isCertificateEntry(alias)) {
          return file;
        }
      }
    } catch (KeyStoreException e) {
      throw new ConfigException(key, "cannot read the " + what + " (" + e.getMessage() + "), was '" + path + "'", e);
    }
    throw new ConfigException(key, "the " + what + " holds no " + (needsKey ? "private key and certificate" :
        "trusted certificate (Java trusts only those imported with keytool -importcert)") + ", was '" + path + "'");
  }

  private static Optional<String> value(ConfigLookup config, String key) {
    return config.get(key).map(String::trim).filter(v -> !v.isEmpty());
  }

  private static <T> void apply(String key, String value, Function<String, T> setter) {
    try {
      setter.apply(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, e.getMessage() + (e.getMessage().contains(value) ? "" : ", was '" + value + "'"), e);
    }
  }

  private static boolean bool(String key, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new ConfigException(key, "expected true or false, was '" + value + "'");
    };
  }

  private static void duration(ConfigLookup config, String key, Consumer<Duration> setter) {
    value(config, key).ifPresent(v -> {
      Duration d;
      try {
        d = Limit.parseDuration(v);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(key, e.getMessage(), e);
      }
      try {
        setter.accept(d);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(key, e.getMessage() + "; was '" + v + "'", e);
      }
    });
  }

  private static void integer(ConfigLookup config, String key, Consumer<Integer> setter) {
    value(config, key).ifPresent(v -> {
      int n;
      try {
        n = Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new ConfigException(key, "expected a whole number, was '" + v + "'", e);
      }
      try {
        setter.accept(n);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(key, e.getMessage() + "; was '" + v + "'", e);
      }
    });
  }
}
