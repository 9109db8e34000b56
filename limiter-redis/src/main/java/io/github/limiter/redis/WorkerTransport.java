package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Redis Cluster, called from a bounded pool of worker threads while the caller waits at most until
 * its deadline. A cluster client may connect, follow redirections and refresh its topology inside
 * one call; the workers absorb that, the caller does not. When every worker is busy and the queue
 * is full, the call fails at once.
 *
 * <p>With pipelining on, the workers hand their calls to one {@link PipelineDispatcher} per master,
 * which writes those of the same master as one pipeline on a connection of that master's pool; in
 * auto mode, a call goes straight through the cluster client while fewer than two calls to that
 * master are out straight (see {@link PipelineDispatcher#takeLane}). A call whose slot has moved
 * (MOVED, ASK) goes once more through the cluster client, which follows the redirection.
 */
final class WorkerTransport implements Transport {

  private final Supplier<ClusterConnectionProvider> providers;
  private final Function<ClusterConnectionProvider, UnifiedJedis> clients;
  private volatile ClusterConnectionProvider provider;
  private final ThreadPoolExecutor workers;
  private volatile UnifiedJedis jedis;
  private volatile boolean closed;
  private final NanoClock clock;
  private final AtomicLong lastRefresh;
  private static final long REFRESH_MILLIS = 200;

  /** Where failures count while the topology is not known yet. */
  static final String UNKNOWN_NODE = "the cluster";

  /** Whether calls go to a master's pipeline: always, never, or unless the call is alone. */
  private final DispatchMode mode;

  /** The most calls per pipeline. */
  private final int pipelineMaxBatch;

  /** The most pipelines in flight at once per master. */
  private final int pipelines;

  private final int socketTimeoutMillis;

  /** One dispatcher per master, by {@code host:port}. */
  private final ConcurrentHashMap<String, PipelineDispatcher> dispatchers =
      new ConcurrentHashMap<>();

  WorkerTransport(
      Supplier<ClusterConnectionProvider> providers,
      Function<ClusterConnectionProvider, UnifiedJedis> clients,
      int threads,
      String name,
      DispatchMode mode,
      int pipelineMaxBatch,
      int socketTimeoutMillis,
      NanoClock clock) {
    this.providers = providers;
    this.clock = clock;
    this.lastRefresh = new AtomicLong(clock.nanos());
    this.clients = clients;
    this.mode = mode;
    this.pipelineMaxBatch = pipelineMaxBatch;
    // The builder gives each master's pool as many connections as there are workers.
    this.pipelines = mode.pipelinesInFlight(threads);
    this.socketTimeoutMillis = socketTimeoutMillis;
    AtomicInteger count = new AtomicInteger();
    this.workers =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(threads * 8),
            runnable -> {
              Thread thread =
                  new Thread(runnable, "limiter-redis-" + name + "-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    workers.allowCoreThreadTimeOut(true);
    // Connect and read the topology now, so that the first decisions need not wait for it.
    workers.execute(
        () -> {
          try {
            jedis();
          } catch (RuntimeException e) {
            // Redis may be down at start-up; the first decision tries again.
            RedisStore.warnUnreachable("Redis Cluster", e);
          }
        });
  }

  /** The client, created on first use so that a store can start while Redis is down. */
  UnifiedJedis jedis() {
    UnifiedJedis j = jedis;
    if (j == null) {
      synchronized (this) {
        j = jedis;
        if (j == null) {
          if (closed) {
            throw new IllegalStateException("store closed");
          }
          ClusterConnectionProvider p = providers.get();
          j = clients.apply(p);
          provider = p;
          jedis = j;
        }
      }
    }
    return j;
  }

  /** The master that serves the slot of {@code key} as far as the client knows now. */
  @Override
  public String nodeOf(String key) {
    ClusterConnectionProvider p = provider;
    HostAndPort node = p == null ? null : p.getNode(JedisClusterCRC16.getSlot(key));
    return node == null ? UNKNOWN_NODE : node.toString();
  }

  @Override
  public Set<String> nodes() {
    ClusterConnectionProvider p = provider;
    return p == null ? Set.of() : Set.copyOf(p.getPrimaryNodes().keySet());
  }

  @Override
  public Object eval(
      Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos)
      throws Exception {
    Future<Object> call = workers.submit(() -> call(script, keys, args, deadlineNanos));
    try {
      return call.get(deadlineNanos - clock.nanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new TimeoutException("no reply from Redis within the decision timeout");
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof Exception failure ? failure : e;
    }
  }

  private Object call(
      Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos)
      throws Exception {
    UnifiedJedis client = jedis();
    try {
      if (mode.pipelines()) {
        String node = nodeOf(keys.get(0));
        if (!node.equals(UNKNOWN_NODE)) {
          PipelineDispatcher dispatcher = dispatcher(node);
          if (mode == DispatchMode.AUTO && dispatcher.takeLane()) {
            try {
              return Transport.evalsha(client, script, keys, args);
            } finally {
              dispatcher.releaseLane();
            }
          }
          try {
            return dispatcher.eval(script, keys, args, deadlineNanos);
          } catch (JedisRedirectionException e) {
            // The slot moved: learn the new topology; the cluster client follows the redirection.
            refreshTopology(client);
          }
        }
      }
      return Transport.evalsha(client, script, keys, args);
    } catch (JedisConnectionException | JedisClusterOperationException e) {
      refreshTopology(client);
      throw e;
    }
  }

  /** For tests: the dispatchers by master, empty with pipelining off. */
  Map<String, PipelineDispatcher> dispatchers() {
    return dispatchers;
  }

  /** The dispatcher of one master: its pipelines go out on connections of that node's pool. */
  private PipelineDispatcher dispatcher(String node) {
    PipelineDispatcher d = dispatchers.get(node);
    return d != null
        ? d
        : dispatchers.computeIfAbsent(
            node,
            n ->
                new PipelineDispatcher(new NodeConnections(n), pipelineMaxBatch, pipelines, clock));
  }

  /** Connections to one master from the cluster client's pool, reads cut to the deadline. */
  private final class NodeConnections implements PipelineDispatcher.Connections {
    private final String node;

    NodeConnections(String node) {
      this.node = node;
    }

    @Override
    public Connection get(long deadlineNanos) {
      ClusterConnectionProvider p = provider;
      ConnectionPool pool = p == null ? null : p.getConnectionMap().get(node);
      if (pool == null) {
        throw new JedisConnectionException("no connection pool for " + node);
      }
      Connection connection = pool.getResource();
      long left = (deadlineNanos - clock.nanos()) / 1_000_000L;
      if (left < 1) {
        connection.close();
        throw new DirectTransport.NoConnection("decision timeout reached before calling " + node);
      }
      connection.setSoTimeout((int) Math.min(left, socketTimeoutMillis));
      return connection;
    }

    @Override
    public void dropStale() {
      // the pool PINGs idle connections itself
    }

    @Override
    public void release(Connection connection) {
      try {
        connection.rollbackTimeout(); // the cluster client shares the pool, with its own timeout
      } catch (RuntimeException e) {
        // closed already; the pool drops it
      }
      connection.close();
    }
  }

  /**
   * After a master dies, its replica takes over; ask the cluster who serves the slots now rather
   * than keep calling the dead node. At most every {@value #REFRESH_MILLIS} ms.
   */
  private void refreshTopology(UnifiedJedis client) {
    long now = clock.nanos();
    long last = lastRefresh.get();
    if (client instanceof RedisClusterClient cluster
        && now - last > REFRESH_MILLIS * 1_000_000L
        && lastRefresh.compareAndSet(last, now)) {
      try {
        cluster.refreshClusterTopology();
      } catch (RuntimeException e) {
        // no node answered; the next failure tries again
      }
    }
  }

  @Override
  public void close() {
    workers.shutdownNow();
    synchronized (this) {
      closed = true;
      if (jedis != null) {
        jedis.close();
      }
    }
  }
}
