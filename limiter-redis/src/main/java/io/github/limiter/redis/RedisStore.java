package io.github.limiter.redis;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.StoreHealth;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.UnifiedJedis;

/**
 * A store in Redis, standalone or Cluster, for limits shared by every node of a deployment.
 *
 * <p>Each decision is one EVALSHA of the policy's algorithm script, which checks and charges all
 * of the policy's limits atomically, with the server's {@code TIME} as the clock (or, in caller
 * mode, a time the caller passes). The scripts compute exactly what the pure functions of {@code
 * io.github.limiter.internal.algorithm} compute at microsecond resolution. Every key expires soon after it
 * is fresh again.
 *
 * <p>A decision never waits longer than the decision timeout. When Redis fails or is too slow, the
 * policy's {@link FailureMode} decides, and a circuit breaker keeps a dead Redis from costing every
 * decision a timeout.
 *
 * <pre>{@code
 * RedisStore store = RedisStore.builder()
 *     .url("rediss://limiter:secret@redis.example:6380/0")
 *     .decisionTimeout(Duration.ofMillis(100))
 *     .build();
 * }</pre>
 */
public final class RedisStore implements RateLimitStore {

  /** The origin of server time in the scripts: 2025-01-01T00:00:00Z, in Unix seconds. */
  public static final long EPOCH_SECONDS = 1_735_689_600L;

  private static final String SERVER_TIME = "";
  private static final String NO_TTL_FLOOR = "0";

  private final Transport transport;
  private final KeyScheme keys;
  private final long budgetNanos;
  private final NanoClock callerClock;
  private final long callerEpoch;
  private final String ttlFloor;
  private final CircuitBreaker breaker;
  private final int localNodes;
  private final InMemoryStore local;
  private final ConcurrentHashMap<Policy, CompiledPolicy> compiled = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Policy, Policy> divided = new ConcurrentHashMap<>();

  private RedisStore(Builder b, Transport transport) {
    this.transport = transport;
    this.keys = new KeyScheme(b.keyPrefix);
    this.budgetNanos = b.decisionTimeout.toNanos();
    this.callerClock = b.callerClock;
    this.callerEpoch = callerClock == null ? 0 : callerClock.nanos();
    this.ttlFloor = callerClock == null ? NO_TTL_FLOOR : Long.toString(b.callerTtlFloor.toMillis());
    this.breaker = new CircuitBreaker(b.breakerFailureThreshold, b.breakerOpenDuration.toNanos());
    this.localNodes = b.localNodes;
    this.local = InMemoryStore.builder().clock(callerClock == null ? NanoClock.system() : callerClock).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The full text of the decide script of {@code algorithm}, as loaded into Redis: for tools and
   * benchmarks that run it themselves.
   */
  public static String decideScript(Algorithm algorithm) {
    return Scripts.decide(algorithm).source();
  }

  @Override
  public Decision decide(Policy policy, String key, long permits) {
    CompiledPolicy c = compile(policy);
    if (!breaker.tryAcquire()) {
      return fallback(policy, key, permits);
    }
    long deadline = System.nanoTime() + budgetNanos;
    try {
      Object reply = transport.eval(c.decide, c.keys(key), c.args(now(), permits, ttlFloor), deadline);
      Decision decision = c.decision(reply);
      breaker.onSuccess();
      return decision;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      breaker.onFailure(e);
      return fallback(policy, key, permits);
    } catch (Exception e) {
      breaker.onFailure(e);
      return fallback(policy, key, permits);
    }
  }

  @Override
  public void refund(Policy policy, String key, long permits) {
    if (permits < 1) {
      return;
    }
    CompiledPolicy c = compile(policy);
    if (breaker.state() == CircuitBreaker.State.CLOSED) {
      try {
        transport.eval(c.refund, c.keys(key), c.args(now(), permits, ttlFloor), System.nanoTime() + budgetNanos);
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        breaker.onFailure(e);
      } catch (Exception e) {
        breaker.onFailure(e);
      }
    }
    if (policy.failureMode() == FailureMode.LOCAL) {
      local.refund(localPolicy(policy), key, permits);
    }
  }

  private Decision fallback(Policy policy, String key, long permits) {
    return switch (policy.failureMode()) {
      case FAIL_OPEN -> Decision.allowedUnverified(policy.name(), policy.limits().get(0));
      case FAIL_CLOSED -> Decision.unavailable(policy.name(), policy.limits().get(0), breaker.retryAfterNanos());
      case LOCAL -> local.decide(localPolicy(policy), key, permits).unverified();
    };
  }

  private Policy localPolicy(Policy policy) {
    Policy share = divided.get(policy);
    return share != null ? share : divided.computeIfAbsent(policy, p -> p.dividedBy(localNodes));
  }

  private CompiledPolicy compile(Policy policy) {
    CompiledPolicy c = compiled.get(policy);
    return c != null ? c : compiled.computeIfAbsent(policy, p -> new CompiledPolicy(p, keys));
  }

  private String now() {
    return callerClock == null ? SERVER_TIME : Long.toString(Math.floorDiv(callerClock.nanos() - callerEpoch, 1_000L));
  }

  @Override
  public TimeSource timeSource() {
    return callerClock == null ? TimeSource.SERVER : TimeSource.CALLER;
  }

  /** Up while the breaker is closed; the breaker's state and the last error seen. */
  @Override
  public StoreHealth health() {
    CircuitBreaker.State state = breaker.state();
    Optional<CircuitBreaker.Failure> failure = breaker.lastFailure();
    return new StoreHealth(
        state == CircuitBreaker.State.CLOSED,
        state.label,
        failure.map(CircuitBreaker.Failure::message),
        failure.map(CircuitBreaker.Failure::at));
  }

  /** The key prefix, e.g. {@code limiter:}. */
  public String keyPrefix() {
    return keys.prefix();
  }

  /** The Redis key of limit {@code limitIndex} of {@code policy} for {@code clientKey}. */
  public String redisKey(Policy policy, String clientKey, int limitIndex) {
    return compile(policy).keys(clientKey).get(limitIndex);
  }

  @Override
  public void close() {
    transport.close();
    local.close();
  }

  /** Configures a {@link RedisStore}; the configuration table in the README lists the matching keys. */
  public static final class Builder {
    private HostAndPort node;
    private Set<HostAndPort> clusterNodes;
    private String urlUser;
    private String urlPassword;
    private String user;
    private String password;
    private int database;
    private boolean tls;
    private SslOptions sslOptions;
    private String keyPrefix = "limiter:";
    private Duration connectTimeout = Duration.ofMillis(500);
    private Duration socketTimeout = Duration.ofMillis(200);
    private Duration decisionTimeout = Duration.ofMillis(250);
    private int poolMaxTotal = 32;
    private int localNodes = 1;
    private int breakerFailureThreshold = 5;
    private Duration breakerOpenDuration = Duration.ofSeconds(1);
    private NanoClock callerClock;
    private Duration callerTtlFloor = Duration.ofMinutes(10);

    private Builder() {}

    /**
     * A standalone server as {@code redis://[[user]:password@]host[:port][/db]}, or {@code
     * rediss://...} for TLS. Credentials set with {@link #user} and {@link #password} win over the
     * URL's.
     *
     * @throws IllegalArgumentException naming the URL and what is wrong with it
     */
    public Builder url(String url) {
      URI uri;
      try {
        uri = new URI(Objects.requireNonNull(url, "url").trim());
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException(expectedUrl(url) + ": " + e.getReason(), e);
      }
      String scheme = uri.getScheme();
      if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
        throw new IllegalArgumentException(expectedUrl(url) + ": the scheme must be redis or rediss");
      }
      if (uri.getHost() == null || uri.getHost().isEmpty()) {
        throw new IllegalArgumentException(expectedUrl(url) + ": no host");
      }
      int port = uri.getPort() == -1 ? 6379 : uri.getPort();
      String path = uri.getPath() == null ? "" : uri.getPath();
      int db = 0;
      if (!path.isEmpty() && !path.equals("/")) {
        try {
          db = Integer.parseInt(path.substring(1));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(expectedUrl(url) + ": the database must be a number, was '" + path.substring(1) + "'", e);
        }
        if (db < 0) {
          throw new IllegalArgumentException(expectedUrl(url) + ": the database must not be negative");
        }
      }
      String info = uri.getRawUserInfo();
      String u = null;
      String p = null;
      if (info != null) {
        int colon = info.indexOf(':');
        if (colon < 0) {
          p = decode(info);
        } else {
          u = colon == 0 ? null : decode(info.substring(0, colon));
          p = decode(info.substring(colon + 1));
        }
      }
      this.node = new HostAndPort(uri.getHost(), port);
      this.database = db;
      this.urlUser = u;
      this.urlPassword = p;
      if ("rediss".equals(scheme)) {
        this.tls = true;
      }
      return this;
    }

    private static String expectedUrl(String url) {
      return "expected redis://[[user]:password@]host[:port][/db] or rediss://..., was '" + url + "'";
    }

    private static String decode(String text) {
      return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** A standalone server at {@code host:port}. */
    public Builder node(String host, int port) {
      this.node = new HostAndPort(requireText(host, "host"), requirePort(port, host + ":" + port));
      return this;
    }

    /**
     * Redis Cluster, discovered from these seed nodes: a comma-separated {@code host:port} list.
     *
     * @throws IllegalArgumentException naming the bad entry
     */
    public Builder clusterNodes(String hostPorts) {
      Set<HostAndPort> nodes = new LinkedHashSet<>();
      for (String part : Objects.requireNonNull(hostPorts, "clusterNodes").split(",")) {
        String entry = part.trim();
        int colon = entry.lastIndexOf(':');
        if (colon <= 0 || colon == entry.length() - 1) {
          throw new IllegalArgumentException("expected a comma-separated list of host:port, was '" + hostPorts + "'");
        }
        String host = entry.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
          host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
          port = Integer.parseInt(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("expected a comma-separated list of host:port, was '" + hostPorts + "'", e);
        }
        nodes.add(new HostAndPort(host, requirePort(port, entry)));
      }
      return clusterNodes(nodes);
    }

    /** Redis Cluster, discovered from these seed nodes. */
    public Builder clusterNodes(Set<HostAndPort> nodes) {
      if (nodes.isEmpty()) {
        throw new IllegalArgumentException("cluster nodes must not be empty");
      }
      this.clusterNodes = Set.copyOf(nodes);
      return this;
    }

    /** The ACL user (Redis 6+); the default user when unset. */
    public Builder user(String user) {
      this.user = requireText(user, "user");
      return this;
    }

    public Builder password(String password) {
      this.password = Objects.requireNonNull(password, "password");
      return this;
    }

    /** TLS with the JVM's default trust store; {@code rediss://} turns it on too. */
    public Builder tls(boolean tls) {
      this.tls = tls;
      return this;
    }

    /** TLS with these options, e.g. a private trust store: {@code SslOptions.builder().truststore(file, pw)}. */
    public Builder sslOptions(SslOptions options) {
      this.sslOptions = Objects.requireNonNull(options, "sslOptions");
      this.tls = true;
      return this;
    }

    /** Prepended to every key; {@code limiter:} by default. Must not contain braces. */
    public Builder keyPrefix(String prefix) {
      this.keyPrefix = KeyScheme.validPrefix(prefix);
      return this;
    }

    /** How long opening a connection may take; 500 ms by default. Never spent by a decision. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = requireMillis(timeout, "connect timeout");
      return this;
    }

    /** How long one read may take; 200 ms by default, and never more than a decision has left. */
    public Builder socketTimeout(Duration timeout) {
      this.socketTimeout = requireMillis(timeout, "socket timeout");
      return this;
    }

    /** The most a decision may wait for Redis before the failure mode decides; 250 ms by default. */
    public Builder decisionTimeout(Duration timeout) {
      this.decisionTimeout = requireMillis(timeout, "decision timeout");
      return this;
    }

    /** Connections per Redis node; 32 by default. */
    public Builder poolMaxTotal(int connections) {
      this.poolMaxTotal = requirePositive(connections, "pool max-total");
      return this;
    }

    /** For {@link FailureMode#LOCAL}: the number of nodes that share each limit; 1 by default. */
    public Builder localNodes(int nodes) {
      this.localNodes = requirePositive(nodes, "local nodes");
      return this;
    }

    /** Consecutive failures that open the circuit breaker; 5 by default. */
    public Builder breakerFailureThreshold(int failures) {
      this.breakerFailureThreshold = requirePositive(failures, "breaker failure threshold");
      return this;
    }

    /** How long the breaker stays open before it lets one probe through; 1 s by default. */
    public Builder breakerOpenDuration(Duration duration) {
      this.breakerOpenDuration = requireMillis(duration, "breaker open duration");
      return this;
    }

    /**
     * Caller time: the scripts use this clock's reading minus its reading at build time, in whole
     * microseconds, instead of the server's {@code TIME}. For the replay tool and equivalence tests;
     * stores sharing keys must then share a clock and an origin. Keys live at least {@link
     * #callerTtlFloor} in real time, since caller time and real time need not agree.
     */
    public Builder callerClock(NanoClock clock) {
      this.callerClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The least TTL of a key under caller time; 10 minutes by default. */
    public Builder callerTtlFloor(Duration floor) {
      this.callerTtlFloor = requireMillis(floor, "caller TTL floor");
      return this;
    }

    /**
     * @throws IllegalStateException if neither a URL, a node nor cluster nodes were given, or both
     */
    public RedisStore build() {
      if (node == null && clusterNodes == null) {
        throw new IllegalStateException("set a url(...), node(...) or clusterNodes(...)");
      }
      if (node != null && clusterNodes != null) {
        throw new IllegalStateException("set either a standalone url/node or cluster nodes, not both");
      }
      if (clusterNodes != null && database != 0) {
        throw new IllegalStateException("Redis Cluster has database 0 only, was " + database);
      }
      JedisClientConfig config = clientConfig();
      Transport transport;
      if (clusterNodes == null) {
        transport = new DirectTransport(node, config, poolMaxTotal, (int) socketTimeout.toMillis());
      } else {
        Set<HostAndPort> seeds = clusterNodes;
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(poolMaxTotal);
        pool.setMaxIdle(poolMaxTotal);
        pool.setMaxWait(decisionTimeout);
        Duration retries = socketTimeout.multipliedBy(2).plus(connectTimeout);
        transport = new WorkerTransport(
            () -> RedisClusterClient.builder()
                .nodes(seeds)
                .clientConfig(config)
                .poolConfig(pool)
                .maxAttempts(3)
                .maxTotalRetriesDuration(retries)
                .topologyRefreshPeriod(Duration.ofSeconds(1))
                .build(),
            poolMaxTotal,
            "cluster");
      }
      return new RedisStore(this, transport);
    }

    private JedisClientConfig clientConfig() {
      DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
          .protocol(RedisProtocol.RESP2)
          .connectionTimeoutMillis((int) connectTimeout.toMillis())
          .socketTimeoutMillis((int) socketTimeout.toMillis())
          .clientName("limiter");
      String u = user != null ? user : urlUser;
      String p = password != null ? password : urlPassword;
      if (u != null) {
        config.user(u);
      }
      if (p != null) {
        config.password(p);
      }
      if (database != 0) {
        config.database(database);
      }
      if (tls) {
        config.sslOptions(sslOptions != null ? sslOptions : SslOptions.defaults());
      }
      return config.build();
    }

    /** For tests: the decision budget. */
    Duration decisionTimeout() {
      return decisionTimeout;
    }

    private static Duration requireMillis(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.toMillis() < 1 || d.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(name + " must be between 1 ms and " + Integer.MAX_VALUE + " ms, was " + d);
      }
      return d;
    }

    private static int requirePositive(int value, String name) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " must be at least 1, was " + value);
      }
      return value;
    }

    private static int requirePort(int port, String where) {
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("port must be between 1 and 65535, was '" + where + "'");
      }
      return port;
    }

    private static String requireText(String text, String name) {
      if (text == null || text.isBlank()) {
        throw new IllegalArgumentException(name + " must not be blank, was '" + text + "'");
      }
      return text;
    }
  }

  /** For tests: the underlying client of a standalone store. */
  UnifiedJedis client() {
    if (transport instanceof DirectTransport direct) {
      return direct.jedis();
    }
    return ((WorkerTransport) transport).jedis();
  }

  /** For tests: the parsed decision budget. */
  long budgetNanos() {
    return budgetNanos;
  }

}
