package io.github.limiter.redis;

import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.internal.config.DeclaredStoreFactory;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.Setting;
import io.github.limiter.internal.config.SettingValues;
import io.github.limiter.spi.ConfigLookup;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.SslOptions;

/**
 * {@code limiter.store=redis}: builds a {@link RedisStore} from the {@code limiter.redis.*} keys,
 * each declared once below. The core parses each value; the checks here are those across keys and
 * the builder's own, and every one fails at start-up, naming the key and the value (never a
 * password's). docs/configuration.md shows their table, made from these declarations ({@code
 * RedisConfigurationDocsTest}).
 */
public final class RedisStoreFactory implements DeclaredStoreFactory {

  public static final String PREFIX = "limiter.redis.";

  public static final Setting<String> URL =
      Setting.<String>of(PREFIX + "url", Function.identity(), null)
          .doc(
              "URL",
              "— (this or `cluster-nodes` is required)",
              "rediss://limiter:secret@redis.internal:6380/2",
              "A standalone server: `redis://[[user]:password@]host[:port][/db]`; `rediss://` "
                  + "turns TLS on. User and password are percent-decoded.");

  public static final Setting<String> CLUSTER_NODES =
      Setting.<String>of(PREFIX + "cluster-nodes", Function.identity(), null)
          .doc(
              "comma list of `host:port`",
              "—",
              "10.0.0.5:7000,10.0.0.6:7000",
              "Seed nodes of a Redis Cluster; setting it selects cluster mode. Not together "
                  + "with `url`.");

  public static final Setting<String> USER =
      Setting.<String>of(PREFIX + "user", Function.identity(), null)
          .doc(
              "string",
              "the URL's user, else `default`",
              "limiter",
              "ACL user for AUTH (Redis 6+). Wins over the URL's.");

  public static final Setting<String> PASSWORD =
      Setting.<String>of(PREFIX + "password", Function.identity(), null)
          .verbatim()
          .doc(
              "string",
              "the URL's password, else none",
              "s3cret",
              "Password for AUTH. Wins over the URL's.");

  public static final Setting<Boolean> TLS =
      Setting.<Boolean>of(PREFIX + "tls", ConfigReader::parseBoolean, null)
          .doc(
              "boolean",
              "`false` (`true` for `rediss://`)",
              "true",
              "TLS, with the JVM's default trust store.");

  public static final Setting<String> TRUSTSTORE =
      Setting.<String>of(PREFIX + "tls.truststore", Function.identity(), null)
          .doc(
              "file path",
              "—",
              "/etc/limiter/redis-ca.p12",
              "A trust store (PKCS12 or JKS) for the server's certificate; implies TLS. Both "
                  + "stores are opened at start-up: a missing file, a wrong password or a store "
                  + "without a certificate (or key) fails the deployment.");

  public static final Setting<String> TRUSTSTORE_PASSWORD =
      Setting.<String>of(PREFIX + "tls.truststore-password", Function.identity(), null)
          .verbatim()
          .doc("string", "—", "changeit", "Password of that trust store.");

  public static final Setting<String> KEYSTORE =
      Setting.<String>of(PREFIX + "tls.keystore", Function.identity(), null)
          .doc(
              "file path",
              "—",
              "/etc/limiter/redis-client.p12",
              "A key store (PKCS12 or JKS) with the client's key and certificate, for a "
                  + "server that requires one (`tls-auth-clients yes`, mutual TLS); implies TLS.");

  public static final Setting<String> KEYSTORE_PASSWORD =
      Setting.<String>of(PREFIX + "tls.keystore-password", Function.identity(), null)
          .verbatim()
          .doc("string", "—", "changeit", "Password of that key store and of its key.");

  public static final Setting<String> KEY_PREFIX =
      Setting.<String>of(PREFIX + "key-prefix", Function.identity(), null)
          .verbatim()
          .doc(
              "string without `{` `}`",
              "`limiter:`",
              "shop-prod:rl:",
              "Prepended to every Redis key: `<prefix>{<policy>:<client key>}:<algorithm><limit "
                  + "index>`.");

  public static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.<Duration>of(PREFIX + "connect-timeout", Limit::parseDuration, null)
          .doc(
              "duration",
              "`500ms`",
              "1s",
              "How long opening a connection may take. Connections open in the background; a "
                  + "decision never waits for one to open.");

  public static final Setting<Duration> SOCKET_TIMEOUT =
      Setting.<Duration>of(PREFIX + "socket-timeout", Limit::parseDuration, null)
          .doc(
              "duration",
              "`200ms`",
              "100ms",
              "How long one read may take; each read is also cut to what is left of the "
                  + "decision timeout.");

  public static final Setting<Duration> DECISION_TIMEOUT =
      Setting.<Duration>of(PREFIX + "decision-timeout", Limit::parseDuration, null)
          .doc(
              "duration",
              "`250ms`",
              "50ms",
              "The whole budget of one decision, connection wait and retries included. Past "
                  + "it the policy's failure mode decides.");

  public static final Setting<Integer> POOL_MAX_TOTAL =
      Setting.<Integer>of(PREFIX + "pool.max-total", RedisStoreFactory::parseInt, null)
          .doc(
              "integer ≥ 1",
              "`32`",
              "64",
              "Connections per Redis node (and worker threads in cluster mode).");

  public static final Setting<Duration> POOL_IDLE_CHECK_INTERVAL =
      Setting.<Duration>of(PREFIX + "pool.idle-check-interval", Limit::parseDuration, null)
          .doc(
              "duration",
              "`30s`",
              "10s",
              "How often idle pooled connections are checked with a `PING`; those found "
                  + "closed (by the server's `timeout`, a load balancer or `CLIENT KILL`) are "
                  + "dropped. Keep it below the shortest idle timeout between the application and "
                  + "Redis.");

  public static final Setting<Integer> LOCAL_NODES =
      Setting.<Integer>of(PREFIX + "local-nodes", RedisStoreFactory::parseInt, null)
          .doc(
              "integer ≥ 1",
              "`1`",
              "4",
              "For policies with `failure=local`: how many application nodes share each "
                  + "limit; the in-memory fallback enforces `Policy.dividedBy(n)`.");

  public static final Setting<Integer> BREAKER_FAILURE_THRESHOLD =
      Setting.<Integer>of(PREFIX + "breaker.failure-threshold", RedisStoreFactory::parseInt, null)
          .doc("integer ≥ 1", "`5`", "3", "Consecutive failures that open the circuit breaker.");

  public static final Setting<Duration> BREAKER_OPEN_DURATION =
      Setting.<Duration>of(PREFIX + "breaker.open-duration", Limit::parseDuration, null)
          .doc(
              "duration",
              "`1s`",
              "500ms",
              "How long the breaker stays open (decisions take the fallback at once) before "
                  + "one probe is let through.");

  public static final Setting<String> PIPELINE_ENABLED =
      Setting.<String>of(PREFIX + "pipeline.enabled", text -> DispatchMode.parse(text).name(), null)
          .doc(
              "`auto`, `true` or `false`",
              "`auto`",
              "false",
              "How decisions reach a Redis node (standalone, or each master of a cluster). "
                  + "`auto`: a decision goes straight out while fewer than two are out straight on "
                  + "its node (a lone caller is in direct mode); otherwise it is queued and "
                  + "pipelined, with up to four pipelines in flight. "
                  + "`true`: every decision is queued and pipelined. `false`: each "
                  + "decision is its own round trip on a pooled connection. See "
                  + "[Pipelining](redis.md#pipelining).");

  public static final Setting<Integer> PIPELINE_MAX_BATCH =
      Setting.<Integer>of(PREFIX + "pipeline.max-batch", RedisStoreFactory::parseInt, null)
          .doc("integer ≥ 1", "`64`", "16", "The most decisions written as one pipeline.");

  public static final Setting<Duration> CONCURRENCY_HOLD =
      Setting.<Duration>of(PREFIX + "concurrency-hold", Limit::parseDuration, null)
          .doc(
              "duration, 1s-1h",
              "`30s`",
              "10s",
              "How long a node's holds on concurrency permits live without renewal; they are "
                  + "renewed every third of it. A node that crashes holds its permits at "
                  + "most this long after its last renewal (see [Concurrency "
                  + "limits](api-products.md#concurrency-limits)).");

  private static final List<Setting<?>> SETTINGS =
      List.of(
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
          POOL_IDLE_CHECK_INTERVAL,
          LOCAL_NODES,
          BREAKER_FAILURE_THRESHOLD,
          BREAKER_OPEN_DURATION,
          PIPELINE_ENABLED,
          PIPELINE_MAX_BATCH,
          CONCURRENCY_HOLD,
          RegionSettings.REGION,
          RegionSettings.GLOBAL_URL,
          RegionSettings.POLICIES,
          RegionSettings.FAILURE,
          RegionSettings.GLOBAL_TIMEOUT);

  @Override
  public String name() {
    return "redis";
  }

  @Override
  public List<Setting<?>> settings() {
    return SETTINGS;
  }

  @Override
  public RateLimitStore create(SettingValues settings) {
    return builder(settings).build();
  }

  /**
   * The builder the keys describe, read as the core reads them (every problem of the whole
   * configuration fails here), for callers who want to add to it before building.
   */
  public static RedisStoreBuilder builder(ConfigLookup lookup) {
    return builder(
        SettingValues.forStore(new RedisStoreFactory(), lookup, LimiterConfig.from(lookup)));
  }

  private static RedisStoreBuilder builder(SettingValues settings) {
    checkUrlOrNodes(settings);
    RedisStoreBuilder b = RedisStore.builder();
    set(settings, URL, b::url);
    set(settings, CLUSTER_NODES, b::clusterNodes);
    set(settings, USER, b::user);
    settings.text(PASSWORD).ifPresent(b::password); // a secret: never shown in a message
    set(settings, TLS, b::tls);
    ssl(settings, b);
    set(settings, KEY_PREFIX, b::keyPrefix);
    set(settings, CONNECT_TIMEOUT, b::connectTimeout);
    set(settings, SOCKET_TIMEOUT, b::socketTimeout);
    set(settings, DECISION_TIMEOUT, b::decisionTimeout);
    set(settings, POOL_MAX_TOTAL, b::poolMaxTotal);
    set(settings, POOL_IDLE_CHECK_INTERVAL, b::idleCheckInterval);
    set(settings, LOCAL_NODES, b::localNodes);
    set(settings, BREAKER_FAILURE_THRESHOLD, b::breakerFailureThreshold);
    set(settings, BREAKER_OPEN_DURATION, b::breakerOpenDuration);
    set(settings, CONCURRENCY_HOLD, b::concurrencyHold);
    set(settings, PIPELINE_ENABLED, mode -> dispatch(b, DispatchMode.valueOf(mode)));
    set(settings, PIPELINE_MAX_BATCH, b::pipelineMaxBatch);
    leases(settings, b);
    RegionSettings.apply(settings, b);
    return b;
  }

  private static void dispatch(RedisStoreBuilder b, DispatchMode mode) {
    switch (mode) {
      case AUTO -> b.pipelineAuto();
      case PIPELINED -> b.pipeline(true);
      case DIRECT -> b.pipeline(false);
    }
  }

  private static void checkUrlOrNodes(SettingValues settings) {
    Optional<String> url = settings.text(URL);
    Optional<String> nodes = settings.text(CLUSTER_NODES);
    if (url.isPresent() && nodes.isPresent()) {
      throw new ConfigException(
          CLUSTER_NODES.name(),
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
          URL.name(),
          "expected redis://host:port (or " + CLUSTER_NODES + " for Redis Cluster), was unset");
    }
  }

  private static void ssl(SettingValues settings, RedisStoreBuilder b) {
    Optional<String> truststore = settings.text(TRUSTSTORE);
    Optional<String> keystore = settings.text(KEYSTORE);
    if (truststore.isEmpty() && keystore.isEmpty()) {
      return;
    }
    SslOptions.Builder ssl = SslOptions.builder();
    truststore.ifPresent(
        path -> {
          char[] password = password(settings, TRUSTSTORE_PASSWORD);
          ssl.truststore(store(TRUSTSTORE, TRUSTSTORE_PASSWORD, path, password, false), password);
        });
    keystore.ifPresent(
        path -> {
          char[] password = password(settings, KEYSTORE_PASSWORD);
          ssl.keystore(store(KEYSTORE, KEYSTORE_PASSWORD, path, password, true), password);
        });
    b.sslOptions(ssl.build());
  }

  private static char[] password(SettingValues settings, Setting<String> setting) {
    return settings.text(setting).map(String::toCharArray).orElse(null);
  }

  /**
   * Lease mode is a policy's setting ({@code limiter.policy.NAME.lease}), read and checked by the
   * core with every other: the store applies it to each policy in lease mode, and to its plans.
   */
  private static void leases(SettingValues settings, RedisStoreBuilder b) {
    settings.core().policies().values().stream()
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
  }

  /**
   * Hands {@code setting}'s value, if set, to {@code setter}; a value the builder refuses fails
   * naming key and value.
   */
  static <T> void set(SettingValues settings, Setting<T> setting, Consumer<T> setter) {
    settings
        .text(setting)
        .ifPresent(
            value -> {
              try {
                setter.accept(settings.get(setting));
              } catch (IllegalArgumentException e) {
                throw new ConfigException(
                    setting.name(),
                    e.getMessage()
                        + (e.getMessage().contains(value) ? "" : ", was '" + value + "'"),
                    e);
              }
            });
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
      Setting<String> key,
      Setting<String> passwordKey,
      String path,
      char[] password,
      boolean needsKey) {
    File file = new File(path);
    String what = needsKey ? "key store" : "trust store";
    if (!file.isFile()) {
      throw new ConfigException(
          key.name(), "expected a readable " + what + " file (PKCS12 or JKS), was '" + path + "'");
    }
    KeyStore store;
    try (InputStream in = new FileInputStream(file)) {
      store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(in, password);
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(
          key.name(),
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
          key.name(),
          "cannot read the " + what + " (" + e.getMessage() + "), was '" + path + "'",
          e);
    }
    throw new ConfigException(
        key.name(),
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
