package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.providers.ConnectionProvider;

/**
 * Standalone Redis, called on the caller's thread: no hand-off, so the hot path costs one round
 * trip and nothing more. The deadline holds because the caller never connects (a background thread
 * does), waits for a free connection at most until the deadline, and reads with a socket timeout of
 * the time left.
 *
 * <p>A connection closed while idle (by the server's {@code timeout}, a load balancer or {@code
 * CLIENT KILL}) fails its command at once. Such a call drops every idle connection, which is likely
 * as stale, and is retried once on a connection known good (new, or just used successfully) within
 * the same deadline; only a failure of that retry reaches the breaker. A background check PINGs
 * idle connections, so that most stale ones are gone before a decision draws them.
 *
 * <p>In pipelined mode a call queues in a {@link PipelineDispatcher}, which writes the queued calls
 * as one pipeline on the next connection free, with the same deadline and stale-connection rules.
 * In {@link DispatchMode#AUTO} a call goes straight out while fewer than two calls are out straight
 * and a connection is idle, so that a lone caller costs what it costs in direct mode; otherwise it
 * queues as in pipelined mode, with a few pipelines in flight. Direct mode never queues.
 */
final class DirectTransport implements Transport {

  private final DeadlineProvider provider;
  private final UnifiedJedis jedis;

  /** The dispatcher that pipelines concurrent calls, or null in direct mode. */
  private final PipelineDispatcher pipeline;

  private final DispatchMode mode;

  /**
   * @param pipelineMaxBatch the most calls written as one pipeline
   * @param clock the clock of the deadlines
   */
  DirectTransport(
      HostAndPort node,
      JedisClientConfig config,
      int maxTotal,
      int socketTimeoutMillis,
      Duration idleCheckInterval,
      DispatchMode mode,
      int pipelineMaxBatch,
      NanoClock clock) {
    this.provider =
        new DeadlineProvider(node, config, maxTotal, socketTimeoutMillis, idleCheckInterval, clock);
    this.jedis = new Client(provider);
    this.mode = mode;
    this.pipeline =
        mode.pipelines()
            ? new PipelineDispatcher(
                provider, pipelineMaxBatch, mode.pipelinesInFlight(maxTotal), clock)
            : null;
    provider.warmUp();
  }

  @Override
  public Object eval(
      Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos)
      throws Exception {
    switch (mode) {
      case PIPELINED:
        return pipeline.eval(script, keys, args, deadlineNanos);
      case AUTO:
        if (pipeline.takeLane()) {
          try {
            return direct(script, keys, args, deadlineNanos, true);
          } catch (Busy e) {
            // no idle connection: this call would wait for one, so it queues
          } finally {
            pipeline.releaseLane();
          }
        }
        return pipeline.eval(script, keys, args, deadlineNanos);
      default:
        return direct(script, keys, args, deadlineNanos, false);
    }
  }

  /**
   * One round trip on a pooled connection; with {@code idleOnly}, only on one idle now, else {@link
   * Busy} (and the pool grows, if it has room).
   */
  private Object direct(
      Scripts.Script script,
      List<String> keys,
      List<String> args,
      long deadlineNanos,
      boolean idleOnly) {
    long[] deadline = provider.deadline.get();
    deadline[0] = deadlineNanos;
    deadline[1] = idleOnly ? 1 : 0;
    try {
      return Transport.evalsha(jedis, script, keys, args);
    } catch (JedisConnectionException e) {
      if (!brokenConnection(e)) {
        throw e;
      }
      provider.dropIdle();
      return Transport.evalsha(jedis, script, keys, args);
    } finally {
      deadline[0] = 0;
      deadline[1] = 0;
    }
  }

  /**
   * Whether a call failed because its connection was closed, not because Redis was slow or no
   * connection could be had: worth one retry on another connection.
   */
  private static boolean brokenConnection(JedisConnectionException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SocketTimeoutException || t instanceof NoConnection) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String nodeOf(String key) {
    return provider.nodeName;
  }

  @Override
  public String onlyNode() {
    return provider.nodeName;
  }

  @Override
  public Set<String> nodes() {
    return Set.of(provider.nodeName);
  }

  /** For tests: the dispatch mode. */
  DispatchMode mode() {
    return mode;
  }

  /** For tests and the benchmark: the dispatcher, or null in direct mode. */
  PipelineDispatcher pipeline() {
    return pipeline;
  }

  /** For tests: the connections in the pool, not in use. */
  int idleConnections() {
    return provider.idle.size();
  }

  /** The client, for tests and tools; calls through it use the socket timeout as their deadline. */
  UnifiedJedis jedis() {
    return jedis;
  }

  @Override
  public void close() {
    jedis.close();
  }

  /** UnifiedJedis over our provider, with Jedis's plain one-attempt executor. */
  private static final class Client extends UnifiedJedis {
    Client(ConnectionProvider provider) {
      super(provider, RedisProtocol.RESP2);
    }
  }

  /** No connection could be had within the deadline: no retry can do better. */
  static class NoConnection extends JedisConnectionException {
    private static final long serialVersionUID = 1L;

    NoConnection(String message) {
      super(message);
    }

    NoConnection(String message, boolean stackTrace) {
      super(message);
      if (!stackTrace) {
        setStackTrace(new StackTraceElement[0]);
      }
    }
  }

  /** No connection is idle now: in auto mode the call queues for a pipeline instead of waiting. */
  static final class Busy extends NoConnection {
    private static final long serialVersionUID = 1L;

    static final Busy INSTANCE = new Busy();

    private Busy() {
      super("no idle connection", false);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this; // thrown on the hot path, and always caught
    }
  }

  /** A pool of connected connections that callers take within their deadline and never open. */
  static final class DeadlineProvider
      implements ConnectionProvider, PipelineDispatcher.Connections {
    private final HostAndPort node;
    final String nodeName;
    private final NanoClock clock;
    private final long idleCheckNanos;
    private final ScheduledExecutorService idleCheck;
    private volatile boolean connectTried;
    private final JedisClientConfig config;
    private final int maxTotal;
    private final int socketTimeoutMillis;
    private final LinkedBlockingDeque<PooledConnection> idle = new LinkedBlockingDeque<>();

    /** Connections open or being opened. */
    private final AtomicInteger open = new AtomicInteger();

    private final ThreadPoolExecutor connector;

    /** The caller's deadline, and 1 if it takes only a connection idle now (see {@link Busy}). */
    final ThreadLocal<long[]> deadline = ThreadLocal.withInitial(() -> new long[2]);

    private volatile Exception lastConnectError;
    private volatile boolean closed;

    DeadlineProvider(
        HostAndPort node,
        JedisClientConfig config,
        int maxTotal,
        int socketTimeoutMillis,
        Duration idleCheckInterval,
        NanoClock clock) {
      this.node = node;
      this.nodeName = node.toString();
      this.clock = clock;
      this.idleCheckNanos = idleCheckInterval.toNanos();
      this.config = config;
      this.maxTotal = maxTotal;
      this.socketTimeoutMillis = socketTimeoutMillis;
      this.connector =
          new ThreadPoolExecutor(
              0,
              1,
              30,
              TimeUnit.SECONDS,
              new LinkedBlockingDeque<>(),
              runnable -> {
                Thread thread = new Thread(runnable, "limiter-redis-connect-" + node);
                thread.setDaemon(true);
                return thread;
              });
      this.idleCheck =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "limiter-redis-idle-check-" + node);
                thread.setDaemon(true);
                return thread;
              });
      idleCheck.scheduleWithFixedDelay(
          this::checkIdle, idleCheckNanos, idleCheckNanos, TimeUnit.NANOSECONDS);
    }

    /** PINGs each connection idle for an interval or more; drops those that fail. */
    private void checkIdle() {
      long now = clock.nanos();
      for (PooledConnection connection : idle.toArray(PooledConnection[]::new)) {
        if (now - connection.releasedAt < idleCheckNanos || !idle.remove(connection)) {
          continue; // used lately, or a caller took it meanwhile
        }
        boolean alive;
        try {
          connection.setSoTimeout(socketTimeoutMillis);
          alive = connection.ping();
        } catch (RuntimeException e) {
          alive = false;
        }
        if (alive) {
          connection.releasedAt = clock.nanos();
          idle.offerLast(connection);
        } else {
          discard(connection);
        }
      }
    }

    /**
     * Drops every idle connection: one was found closed, the others idle as long are likely closed
     * too.
     */
    void dropIdle() {
      for (PooledConnection c = idle.pollLast(); c != null; c = idle.pollLast()) {
        discard(c);
      }
    }

    private void discard(PooledConnection connection) {
      connection.disconnectQuietly();
      open.decrementAndGet();
    }

    void warmUp() {
      requestConnection();
    }

    @Override
    public Connection getConnection() {
      PooledConnection connection = idle.pollFirst();
      if (connection == null) {
        requestConnection();
        if (deadline.get()[1] != 0) {
          throw Busy.INSTANCE;
        }
        try {
          connection = idle.pollFirst(remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new JedisConnectionException(
              "interrupted while waiting for a connection to " + node, e);
        }
        if (connection == null) {
          Exception cause = lastConnectError;
          throw new NoConnection(
              "no connection to "
                  + node
                  + " within the decision timeout"
                  + (cause == null
                      ? ""
                      : "; last connect error: " + CircuitBreaker.describe(cause)));
        }
      }
      long left = remainingNanos() / 1_000_000L;
      if (left < 1) {
        connection.close();
        throw new NoConnection("decision timeout reached before calling " + node);
      }
      connection.setSoTimeout((int) Math.min(left, socketTimeoutMillis));
      return connection;
    }

    @Override
    public Connection getConnection(CommandArguments args) {
      return getConnection();
    }

    @Override
    public Connection get(long deadlineNanos) {
      long[] d = deadline.get();
      d[0] = deadlineNanos;
      try {
        return getConnection();
      } finally {
        d[0] = 0;
      }
    }

    @Override
    public void dropStale() {
      dropIdle();
    }

    private long remainingNanos() {
      long d = deadline.get()[0];
      return d == 0 ? socketTimeoutMillis * 1_000_000L : d - clock.nanos();
    }

    /** Opens one more connection in the background, if the pool has room. */
    private void requestConnection() {
      for (int n = open.get(); n < maxTotal && !closed; n = open.get()) {
        if (open.compareAndSet(n, n + 1)) {
          try {
            connector.execute(this::connect);
          } catch (RuntimeException e) {
            open.decrementAndGet();
          }
          return;
        }
      }
    }

    private void connect() {
      PooledConnection connection;
      try {
        connection = new PooledConnection(this, node, config);
        if (!connection.isConnected()) {
          connection.connect();
        }
      } catch (RuntimeException e) {
        lastConnectError = e;
        open.decrementAndGet();
        if (!connectTried && !closed) {
          connectTried = true; // warn once, at start-up only
          RedisStore.warnUnreachable("Redis at " + node, e);
        }
        return;
      }
      connectTried = true;
      lastConnectError = null;
      if (closed) {
        connection.disconnectQuietly();
        open.decrementAndGet();
      } else {
        idle.offerFirst(connection);
      }
    }

    void release(PooledConnection connection) {
      if (closed || connection.isBroken() || !connection.isConnected()) {
        discard(connection);
      } else {
        connection.releasedAt = clock.nanos();
        idle.offerFirst(connection);
      }
    }

    @Override
    public void close() {
      closed = true;
      connector.shutdownNow();
      idleCheck.shutdownNow();
      for (PooledConnection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
        c.disconnectQuietly();
        open.decrementAndGet();
      }
    }
  }

  /** A connection that goes back to its provider when Jedis closes it after a command. */
  static final class PooledConnection extends Connection {
    private final DeadlineProvider provider;

    /** When it last went back to the pool, by the provider's clock. */
    volatile long releasedAt;

    PooledConnection(DeadlineProvider provider, HostAndPort node, JedisClientConfig config) {
      super(node, config);
      this.provider = provider;
      this.releasedAt = provider.clock.nanos();
    }

    @Override
    public void close() {
      provider.release(this);
    }

    void disconnectQuietly() {
      try {
        disconnect();
      } catch (RuntimeException e) {
        // already gone
      }
    }
  }
}
