package io.github.limiter.redis;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;

/**
 * Any {@link UnifiedJedis} (Redis Cluster here), called from a bounded pool of worker threads
 * while the caller waits at most until its deadline. A cluster client may connect, follow
 * redirections and refresh its topology inside one call; the workers absorb that, the caller does
 * not. When every worker is busy and the queue is full, the call fails at once.
 */
final class WorkerTransport implements Transport {

  private final Supplier<UnifiedJedis> factory;
  private final ThreadPoolExecutor workers;
  private volatile UnifiedJedis jedis;
  private volatile boolean closed;

  WorkerTransport(Supplier<UnifiedJedis> factory, int threads, String name) {
    this.factory = factory;
    AtomicInteger count = new AtomicInteger();
    this.workers = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(threads * 8), runnable -> {
          Thread thread = new Thread(runnable, "limiter-redis-" + name + "-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
    workers.allowCoreThreadTimeOut(true);
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
          j = factory.get();
          jedis = j;
        }
      }
    }
    return j;
  }

  @Override
  public Object eval(Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos)
      throws Exception {
    Future<Object> call = workers.submit(() -> Transport.evalsha(jedis(), script, keys, args));
    try {
      return call.get(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
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
