package io.github.limiter.redis;

import io.github.limiter.FailureMode;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/**
 * Configures a {@link RedisStore}; docs/configuration.md lists the matching {@code limiter.redis.*}
 * keys, which {@link RedisStoreFactory} declares.
 */
public final class RedisStoreBuilder {
  private HostAndPort node;
  private Set<HostAndPort> clusterNodes;
  private String urlUser;
  private String urlPassword;
  private String user;
  private String password;
  private int database;
  private boolean tls;
  private SslOptions sslOptions;
  String keyPrefix = "limiter:";
  private Duration connectTimeout = Duration.ofMillis(500);
  private Duration socketTimeout = Duration.ofMillis(200);
  Duration decisionTimeout = Duration.ofMillis(250);
  private int poolMaxTotal = 32;
  int localNodes = 1;
  int breakerFailureThreshold = 5;
  Duration breakerOpenDuration = Duration.ofSeconds(1);
  NanoClock callerClock;
  Clock wallClock = Clock.systemUTC();
  NanoClock clock = NanoClock.system();
  Duration callerTtlFloor = Duration.ofMinutes(10);
  Duration concurrencyHold = DEFAULT_CONCURRENCY_HOLD;
  private Duration idleCheckInterval = Duration.ofSeconds(30);
  Duration logInterval = CircuitBreaker.LOG_INTERVAL;
  final Map<String, PolicyConfig.LeaseMode> leases = new LinkedHashMap<>();
  boolean leaseBackground = true;
  private DispatchMode dispatch = DispatchMode.AUTO;
  private String region;
  private String globalUrl;
  private final Set<String> globalPolicies = new LinkedHashSet<>();
  private RegionPools.Failure regionFailure = RegionPools.Failure.REFUSE;
  private Duration globalTimeout = Duration.ofSeconds(1);
  private int pipelineMaxBatch = 64;

  RedisStoreBuilder() {}

  /**
   * A standalone server as {@code redis://[[user]:password@]host[:port][/db]}, or {@code
   * rediss://...} for TLS. Credentials set with {@link #user} and {@link #password} win over the
   * URL's.
   *
   * @throws IllegalArgumentException naming the URL and what is wrong with it
   */
  public RedisStoreBuilder url(String url) {
    RedisUrl parsed = RedisUrl.parse(url);
    this.node = parsed.node();
    this.database = parsed.database();
    this.urlUser = parsed.user();
    this.urlPassword = parsed.password();
    if (parsed.tls()) {
      this.tls = true;
    }
    return this;
  }

  /** A standalone server at {@code host:port}. */
  public RedisStoreBuilder node(String host, int port) {
    this.node = new HostAndPort(requireText(host, "host"), requirePort(port, host + ":" + port));
    return this;
  }

  /**
   * Redis Cluster, discovered from these seed nodes: a comma-separated {@code host:port} list.
   *
   * @throws IllegalArgumentException naming the bad entry
   */
  public RedisStoreBuilder clusterNodes(String hostPorts) {
    Set<HostAndPort> nodes = new LinkedHashSet<>();
    for (String part : Objects.requireNonNull(hostPorts, "clusterNodes").split(",")) {
      String entry = part.trim();
      int colon = entry.lastIndexOf(':');
      if (colon <= 0 || colon == entry.length() - 1) {
        throw new IllegalArgumentException(
            "expected a comma-separated list of host:port, was '" + hostPorts + "'");
      }
      String host = entry.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      int port;
      try {
        port = Integer.parseInt(entry.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "expected a comma-separated list of host:port, was '" + hostPorts + "'", e);
      }
      nodes.add(new HostAndPort(host, requirePort(port, entry)));
    }
    return clusterNodes(nodes);
  }

  /** Redis Cluster, discovered from these seed nodes. */
  public RedisStoreBuilder clusterNodes(Set<HostAndPort> nodes) {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("cluster nodes must not be empty");
    }
    this.clusterNodes = Set.copyOf(nodes);
    return this;
  }

  /** The ACL user (Redis 6+); the default user when unset. */
  public RedisStoreBuilder user(String user) {
    this.user = requireText(user, "user");
    return this;
  }

  public RedisStoreBuilder password(String password) {
    this.password = Objects.requireNonNull(password, "password");
    return this;
  }

  /** TLS with the JVM's default trust store; {@code rediss://} turns it on too. */
  public RedisStoreBuilder tls(boolean tls) {
    this.tls = tls;
    return this;
  }

  /**
   * TLS with these options, e.g. a private trust store: {@code
   * SslOptions.builder().truststore(file, pw)}.
   */
  public RedisStoreBuilder sslOptions(SslOptions options) {
    this.sslOptions = Objects.requireNonNull(options, "sslOptions");
    this.tls = true;
    return this;
  }

  /** Prepended to every key; {@code limiter:} by default. Must not contain braces. */
  public RedisStoreBuilder keyPrefix(String prefix) {
    this.keyPrefix = KeyScheme.validPrefix(prefix);
    return this;
  }

  /** How long opening a connection may take; 500 ms by default. Never spent by a decision. */
  public RedisStoreBuilder connectTimeout(Duration timeout) {
    this.connectTimeout = requireMillis(timeout, "connect timeout");
    return this;
  }

  /** How long one read may take; 200 ms by default, and never more than a decision has left. */
  public RedisStoreBuilder socketTimeout(Duration timeout) {
    this.socketTimeout = requireMillis(timeout, "socket timeout");
    return this;
  }

  /** The most a decision may wait for Redis before the failure mode decides; 250 ms by default. */
  public RedisStoreBuilder decisionTimeout(Duration timeout) {
    this.decisionTimeout = requireMillis(timeout, "decision timeout");
    return this;
  }

  /**
   * How often idle connections are checked with a PING, so that one closed while idle (by the
   * server's {@code timeout}, a load balancer or {@code CLIENT KILL}) is dropped before a decision
   * draws it; 30 s by default. Set it below the shortest idle timeout between here and Redis.
   */
  public RedisStoreBuilder idleCheckInterval(Duration interval) {
    this.idleCheckInterval = requireMillis(interval, "idle check interval");
    return this;
  }

  /** Connections per Redis node; 32 by default. */
  public RedisStoreBuilder poolMaxTotal(int connections) {
    this.poolMaxTotal = requirePositive(connections, "pool max-total");
    return this;
  }

  /**
   * Forces a dispatch mode. {@code true}: every decision queues, and those queued while one batch
   * is in flight are written together as one pipeline; {@code false}: each decision is its own
   * round trip on a pooled connection. By default (see {@link #pipelineAuto}) the store switches
   * between the two by itself.
   */
  public RedisStoreBuilder pipeline(boolean enabled) {
    this.dispatch = enabled ? DispatchMode.PIPELINED : DispatchMode.DIRECT;
    return this;
  }

  /**
   * Auto mode: a decision goes straight out on a pooled connection while fewer than two decisions
   * are out straight on its node, as in direct mode; otherwise it queues, and those queued go out
   * together as pipelines, up to four in flight at once. A lone caller never queues.
   */
  public RedisStoreBuilder pipelineAuto() {
    this.dispatch = DispatchMode.AUTO;
    return this;
  }

  /** The most decisions written as one pipeline; 64 by default. */
  public RedisStoreBuilder pipelineMaxBatch(int calls) {
    this.pipelineMaxBatch = requirePositive(calls, "pipeline max-batch");
    return this;
  }

  /** For {@link FailureMode#LOCAL}: the number of nodes that share each limit; 1 by default. */
  public RedisStoreBuilder localNodes(int nodes) {
    this.localNodes = requirePositive(nodes, "local nodes");
    return this;
  }

  /** Consecutive failures that open the circuit breaker; 5 by default. */
  public RedisStoreBuilder breakerFailureThreshold(int failures) {
    this.breakerFailureThreshold = requirePositive(failures, "breaker failure threshold");
    return this;
  }

  /** How long the breaker stays open before it lets one probe through; 1 s by default. */
  public RedisStoreBuilder breakerOpenDuration(Duration duration) {
    this.breakerOpenDuration = requireMillis(duration, "breaker open duration");
    return this;
  }

  /**
   * Caller time: the scripts use this clock's reading minus its reading at build time, in whole
   * microseconds, instead of the server's {@code TIME}. For the replay tool and equivalence tests;
   * stores sharing keys must then share a clock and an origin. Keys live at least {@link
   * #callerTtlFloor} in real time, since caller time and real time need not agree.
   */
  public RedisStoreBuilder callerClock(NanoClock clock) {
    this.callerClock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * The wall clock from which calendar quotas compute their periods (the system's by default): the
   * period around its reading and the periods before and after it, of which the scripts pick the
   * one that holds the server's {@code TIME}. Under a {@link #callerClock}, read once at build
   * time: the periods are placed at that instant plus caller time.
   */
  public RedisStoreBuilder wallClock(Clock clock) {
    this.wallClock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** The default TTL of a node's hold on the concurrency permits it holds. */
  static final Duration DEFAULT_CONCURRENCY_HOLD = Duration.ofSeconds(30);

  /**
   * How long a node's hold on the concurrency permits it holds lives without renewal; 30 s by
   * default, between 1 s and 1 h. The store renews it every third of this while the permits are
   * held, so a node that dies holds them at most this long after its last renewal.
   */
  public RedisStoreBuilder concurrencyHold(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException(
          "concurrency hold must be between 1s and 1h, was " + ttl.toMillis() + "ms");
    }
    this.concurrencyHold = ttl;
    return this;
  }

  /** The least TTL of a key under caller time; 10 minutes by default. */
  public RedisStoreBuilder callerTtlFloor(Duration floor) {
    this.callerTtlFloor = requireMillis(floor, "caller TTL floor");
    return this;
  }

  /**
   * Lease mode for the policy named {@code policyName} (token bucket or fixed window): this node
   * reserves slices of each key's limits and spends them locally; see docs/lease-mode.md for what
   * it gives up. Every node must decide the policy in the same mode.
   *
   * @param refresh a slice is sized to last about this long at the node's rate
   * @param ttl how long a slice may be spent; what is left then goes back
   * @param maxSlice the largest slice
   * @param lowWater the fraction of the last slice below which the next is fetched in the
   *     background
   * @throws IllegalArgumentException naming a bad value
   */
  public RedisStoreBuilder lease(
      String policyName, Duration refresh, Duration ttl, long maxSlice, double lowWater) {
    return lease(policyName, PolicyConfig.LeaseMode.on(refresh, ttl, maxSlice, lowWater));
  }

  /** Lease mode for the policy named {@code policyName}, with the default settings. */
  public RedisStoreBuilder lease(String policyName) {
    PolicyConfig.LeaseMode d = PolicyConfig.LeaseMode.OFF;
    return lease(policyName, d.refresh(), d.ttl(), d.maxSlice(), d.lowWater());
  }

  /** As configured by {@code limiter.policy.NAME.lease*}. */
  RedisStoreBuilder lease(String policyName, PolicyConfig.LeaseMode settings) {
    if (!Policy.isValidName(policyName)) {
      throw new IllegalArgumentException("not a policy name, was '" + policyName + "'");
    }
    leases.put(policyName, Objects.requireNonNull(settings, "settings"));
    return this;
  }

  /**
   * Makes the policies named {@code policies} global across regions (token bucket or fixed window;
   * docs/multi-region.md): one budget in the Redis at {@code globalUrl} (null: this store's Redis,
   * the home region's), leased to this region's pool, from which this node leases as in lease mode
   * (with the policy's lease settings, or lease mode's defaults).
   *
   * @param region this deployment's region, {@code [A-Za-z0-9_.-]{1,64}}
   * @throws IllegalArgumentException naming what is wrong
   */
  public RedisStoreBuilder region(String region, String globalUrl, Set<String> policies) {
    if (region == null || !region.matches(RegionPools.REGION_NAME)) {
      throw new IllegalArgumentException(
          "region must match " + RegionPools.REGION_NAME + ", was '" + region + "'");
    }
    if (globalUrl != null) {
      RedisUrl.parse(globalUrl);
    }
    if (policies.isEmpty()) {
      throw new IllegalArgumentException("a region needs at least one global policy, was none");
    }
    this.region = region;
    this.globalUrl = globalUrl;
    this.globalPolicies.addAll(policies);
    PolicyConfig.LeaseMode d = PolicyConfig.LeaseMode.OFF;
    for (String policy : policies) {
      leases.putIfAbsent(
          policy, PolicyConfig.LeaseMode.on(d.refresh(), d.ttl(), d.maxSlice(), d.lowWater()));
    }
    return this;
  }

  /**
   * What a region does once its pool is spent and the global Redis cannot be reached: {@code
   * refuse} (the default) or {@code allow <permits>/<duration>}, which the bound counts.
   */
  public RedisStoreBuilder regionFailure(String failure) {
    this.regionFailure = RegionPools.Failure.parse(failure);
    return this;
  }

  /** The budget of one call to the global Redis (default 1 s): a refill, never a decision. */
  public RedisStoreBuilder globalTimeout(Duration timeout) {
    this.globalTimeout = requireMillis(timeout, "global timeout");
    return this;
  }

  /** The global policies' pools of this region, on their own connection to the global Redis. */
  RegionPools regionPools(KeyScheme keys) {
    if (region == null) {
      return null;
    }
    HostAndPort at = node;
    JedisClientConfig config = clientConfig();
    if (globalUrl != null) {
      RedisUrl url = RedisUrl.parse(globalUrl);
      at = url.node();
      config =
          clientConfig(
              globalTimeout,
              globalTimeout,
              "limiter-global",
              url.user(),
              url.password(),
              url.database(),
              url.tls());
    }
    if (at == null) {
      throw new IllegalStateException("a region on Redis Cluster needs a global URL");
    }
    Transport transport =
        new DirectTransport(
            at,
            config,
            4,
            (int) globalTimeout.toMillis(),
            idleCheckInterval,
            DispatchMode.DIRECT,
            1,
            clock);
    GuardedCalls calls =
        new GuardedCalls(
            transport,
            clock,
            globalTimeout.toNanos(),
            breakerFailureThreshold,
            breakerOpenDuration.toNanos(),
            logInterval);
    return new RegionPools(region, globalPolicies, regionFailure, calls, keys, leaseBackground);
  }

  /** For tests: grants below the low-water mark on the deciding thread, sweeps only when asked. */
  RedisStoreBuilder leaseInline() {
    this.leaseBackground = false;
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
      throw new IllegalStateException(
          "set either a standalone url/node or cluster nodes, not both");
    }
    if (clusterNodes != null && database != 0) {
      throw new IllegalStateException("Redis Cluster has database 0 only, was " + database);
    }
    JedisClientConfig config = clientConfig();
    Transport transport;
    if (clusterNodes == null) {
      transport =
          new DirectTransport(
              node,
              config,
              poolMaxTotal,
              (int) socketTimeout.toMillis(),
              idleCheckInterval,
              dispatch,
              pipelineMaxBatch,
              clock);
    } else {
      Set<HostAndPort> seeds = clusterNodes;
      ConnectionPoolConfig pool = new ConnectionPoolConfig();
      pool.setMaxTotal(poolMaxTotal);
      pool.setMaxIdle(poolMaxTotal);
      pool.setMaxWait(decisionTimeout);
      // PING every idle connection each interval and drop those that fail.
      pool.setTestWhileIdle(true);
      pool.setTimeBetweenEvictionRuns(idleCheckInterval);
      pool.setMinEvictableIdleDuration(Duration.ofMinutes(30));
      Duration retries = socketTimeout.multipliedBy(2).plus(connectTimeout);
      transport =
          new WorkerTransport(
              () -> new ClusterConnectionProvider(seeds, config, pool, Duration.ofSeconds(1)),
              provider ->
                  RedisClusterClient.builder()
                      .nodes(seeds)
                      .connectionProvider(provider)
                      .maxAttempts(3)
                      .maxTotalRetriesDuration(retries)
                      .build(),
              poolMaxTotal,
              "cluster",
              dispatch,
              pipelineMaxBatch,
              (int) socketTimeout.toMillis(),
              clock);
    }
    return new RedisStore(this, transport);
  }

  private JedisClientConfig clientConfig() {
    return clientConfig(
        connectTimeout,
        socketTimeout,
        "limiter",
        user != null ? user : urlUser,
        password != null ? password : urlPassword,
        database,
        tls);
  }

  /** One client configuration: the store's own, or its region's connection to the global Redis. */
  private JedisClientConfig clientConfig(
      Duration connect,
      Duration socket,
      String clientName,
      String user,
      String password,
      int database,
      boolean tls) {
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .protocol(RedisProtocol.RESP2)
            .connectionTimeoutMillis((int) connect.toMillis())
            .socketTimeoutMillis((int) socket.toMillis())
            .clientName(clientName);
    if (user != null) {
      config.user(user);
    }
    if (password != null) {
      config.password(password);
    }
    if (database != 0) {
      config.database(database);
    }
    if (tls) {
      config.sslOptions(sslOptions != null ? sslOptions : SslOptions.defaults());
    }
    return config.build();
  }

  /** For tests: how often an open breaker logs a summary, instead of every 10 s. */
  RedisStoreBuilder logInterval(Duration interval) {
    this.logInterval = interval;
    return this;
  }

  /**
   * For tests: the clock of the decision deadlines, the circuit breakers and their log, instead of
   * {@link NanoClock#system()}.
   */
  RedisStoreBuilder clock(NanoClock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** For tests: the decision budget. */
  Duration decisionTimeout() {
    return decisionTimeout;
  }

  private static Duration requireMillis(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.toMillis() < 1 || d.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          name + " must be between 1 ms and " + Integer.MAX_VALUE + " ms, was " + d);
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
