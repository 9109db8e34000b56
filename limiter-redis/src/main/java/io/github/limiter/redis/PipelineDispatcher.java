package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Pipelines the EVALSHA calls of concurrent callers on one Redis node. A caller queues its call and
 * waits for its reply until its deadline. Whoever finds a turn free takes it: it writes every call
 * queued (up to the maximum batch) as one pipeline on one connection, reads the replies in order,
 * wakes the next caller queued, which takes the next turn, and then hands each reply to its caller.
 * A lone caller thus takes a turn itself at once: no thread hand-off and no window, the same one
 * round trip as a direct call. Callers that arrive while every turn has a batch in flight queue up
 * and go out together in the next one. Pipelined mode has one turn; auto mode has a few (see {@link
 * DispatchMode#pipelinesInFlight}), so that a handful of concurrent callers is not serialized
 * behind one round trip.
 *
 * <p>Failures stay per call, as in the direct mode: an error reply fails its own call only; a
 * NOSCRIPT reply (after a restart, a failover or {@code SCRIPT FLUSH}) loads each script concerned
 * once, by one EVAL as in the direct mode, and retries only the calls that got it, on the same
 * connection. A connection closed while idle fails the batch at once; the batch is then retried
 * once on a connection known good, within the same deadlines. A read times out at the earliest
 * deadline of the batch, and fails the calls of the batch still waiting; a caller never waits past
 * its own deadline.
 */
final class PipelineDispatcher {

  /** Where the dispatcher's turn gets its connection, within a deadline. */
  interface Connections {

    /** A connection whose reads time out at {@code deadlineNanos} at the latest. */
    Connection get(long deadlineNanos);

    /** The connection in hand was found closed; drop others likely as stale. */
    void dropStale();

    /** Gives back a connection from {@link #get}. */
    default void release(Connection connection) {
      connection.close();
    }
  }

  private static final int QUEUED = 0;
  private static final int TAKEN = 1;
  private static final int DONE = 2;
  private static final int ABANDONED = 3;

  private static final CommandObjects COMMANDS = new CommandObjects(RedisProtocol.RESP2);

  private final Connections connections;
  private final int maxBatch;
  private final NanoClock clock;
  private final ConcurrentLinkedQueue<Call> queue = new ConcurrentLinkedQueue<>();

  /** The most turns under way at once, each with one batch in flight on its own connection. */
  private final int pipelines;

  /** Turns under way. */
  private final AtomicInteger turns = new AtomicInteger();

  /** Calls gone straight out by {@link #takeLane}. */
  private final AtomicInteger straight = new AtomicInteger();

  /** For tests and the benchmark: batches written, and calls written in them. */
  final LongAdder batches = new LongAdder();

  final LongAdder calls = new LongAdder();

  /** For tests: the largest batch written so far. */
  final AtomicInteger largestBatch = new AtomicInteger();

  /**
   * @param pipelines the most batches in flight at once, each on its own connection
   * @param clock the clock of the deadlines
   */
  PipelineDispatcher(Connections connections, int maxBatch, int pipelines, NanoClock clock) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("max batch must be at least 1, was " + maxBatch);
    }
    if (pipelines < 1) {
      throw new IllegalArgumentException("pipelines must be at least 1, was " + pipelines);
    }
    this.connections = connections;
    this.maxBatch = maxBatch;
    this.pipelines = pipelines;
    this.clock = clock;
  }

  /** Whether calls are queued for the next batch. */
  boolean queued() {
    return !queue.isEmpty();
  }

  /**
   * Auto mode's rule: true if fewer than {@link DispatchMode#STRAIGHT_OUT} calls are out straight
   * on this node; the caller may then go straight out, and counts as out until {@link
   * #releaseLane}. So a lone caller never queues, and the calls beyond those share pipelines.
   */
  boolean takeLane() {
    return take(straight, DispatchMode.STRAIGHT_OUT);
  }

  /** For tests: the calls out straight now. */
  int outStraight() {
    return straight.get();
  }

  /** Ends the call that went straight out by {@link #takeLane}. */
  void releaseLane() {
    straight.decrementAndGet();
  }

  /** Counts one more in {@code counter} if it is below {@code most}. */
  private static boolean take(AtomicInteger counter, int most) {
    for (int n = counter.get(); n < most; n = counter.get()) {
      if (counter.compareAndSet(n, n + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Runs {@code script} by EVALSHA in the next batch and returns its reply, or throws. */
  Object eval(Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos)
      throws Exception {
    Call call = new Call(script, keys, args, deadlineNanos);
    queue.add(call);
    for (; ; ) {
      int s = call.state.get();
      if (s == DONE) {
        return call.reply();
      }
      if (s == QUEUED && take(turns, pipelines)) {
        List<Call> batch = List.of();
        try {
          batch = runBatch();
        } finally {
          // The next turn may write while this one hands out the replies.
          turns.decrementAndGet();
          wakeNext();
          for (Call c : batch) {
            c.publish();
          }
        }
        continue;
      }
      long left = deadlineNanos - clock.nanos();
      if (left <= 0 || Thread.interrupted()) {
        boolean interrupted = left > 0;
        if (call.state.compareAndSet(QUEUED, ABANDONED)
            || call.state.compareAndSet(TAKEN, ABANDONED)) {
          if (interrupted) {
            throw new InterruptedException("interrupted while waiting for Redis");
          }
          throw new TimeoutException("no reply from Redis within the decision timeout");
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
        continue; // completed meanwhile
      }
      LockSupport.parkNanos(this, left);
    }
  }

  /**
   * Wakes the first caller still waiting in the queue, to take the next turn; unless callers took
   * every turn meanwhile, and they wake the next one when their turns end.
   */
  private void wakeNext() {
    for (Call head = queue.peek(); head != null && turns.get() < pipelines; head = queue.peek()) {
      if (head.state.get() == QUEUED) {
        LockSupport.unpark(head.caller);
        return;
      }
      queue.remove(head); // abandoned: its caller has gone
    }
  }

  /**
   * One turn: takes what is queued, writes it as one pipeline and settles each call; returns them,
   * to be published once the turn is over.
   */
  private List<Call> runBatch() {
    List<Call> batch = new ArrayList<>(Math.min(maxBatch, 64));
    long earliest = Long.MAX_VALUE;
    for (Call c = queue.poll(); c != null; c = batch.size() < maxBatch ? queue.poll() : null) {
      if (c.state.compareAndSet(QUEUED, TAKEN)) {
        batch.add(c);
        earliest = Math.min(earliest, c.deadlineNanos);
      }
    }
    if (batch.isEmpty()) {
      return batch;
    }
    batches.increment();
    calls.add(batch.size());
    largestBatch.accumulateAndGet(batch.size(), Math::max);
    try {
      try {
        write(batch, earliest);
      } catch (JedisConnectionException e) {
        if (!brokenConnection(e)) {
          throw e;
        }
        connections.dropStale();
        write(pending(batch), earliest);
      }
    } catch (RuntimeException e) {
      for (Call c : batch) {
        c.fail(e);
      }
    }
    return batch;
  }

  private static List<Call> pending(List<Call> batch) {
    List<Call> left = new ArrayList<>(batch.size());
    for (Call c : batch) {
      if (!c.settled) {
        left.add(c);
      }
    }
    return left;
  }

  private void write(List<Call> batch, long deadlineNanos) {
    if (batch.isEmpty()) {
      return;
    }
    Connection connection = connections.get(deadlineNanos);
    try {
      for (Call c : batch) {
        connection.sendCommand(c.command.getArguments());
      }
      List<Object> replies = connection.getMany(batch.size());
      Set<Scripts.Script> missing = null;
      List<Call> retry = null;
      for (int i = 0; i < batch.size(); i++) {
        Call c = batch.get(i);
        Object reply = replies.get(i);
        if (reply instanceof JedisNoScriptException) {
          if (retry == null) {
            retry = new ArrayList<>();
            missing = new HashSet<>();
          }
          retry.add(c);
          missing.add(c.script);
        } else {
          c.complete(reply);
        }
      }
      if (retry != null) {
        reload(connection, missing, retry, deadlineNanos);
      }
    } finally {
      connections.release(connection);
    }
  }

  /**
   * Runs again, in one more round trip, only the calls that got NOSCRIPT: the first call of each
   * script by EVAL, which loads it again (once), the others by EVALSHA after it.
   */
  private void reload(
      Connection connection, Set<Scripts.Script> missing, List<Call> retry, long deadline) {
    long left = (deadline - clock.nanos()) / 1_000_000L;
    if (left < 1) {
      throw new JedisConnectionException(
          new SocketTimeoutException("decision timeout reached before reloading a script"));
    }
    connection.setSoTimeout((int) Math.min(left, connection.getSoTimeout()));
    for (Call c : retry) {
      connection.sendCommand(
          missing.remove(c.script)
              ? COMMANDS.eval(c.script.source(), c.keys, c.args).getArguments()
              : c.command.getArguments());
    }
    List<Object> replies = connection.getMany(retry.size());
    for (int i = 0; i < retry.size(); i++) {
      Call c = retry.get(i);
      Object reply = replies.get(i);
      if (reply instanceof JedisNoScriptException) {
        // flushed again between the EVAL and this call: this one by EVAL too
        connection.sendCommand(COMMANDS.eval(c.script.source(), c.keys, c.args).getArguments());
        try {
          reply = connection.getOne();
        } catch (JedisDataException e) {
          reply = e; // an error answer fails this call only
        }
      }
      c.complete(reply);
    }
  }

  /**
   * Whether a batch failed because its connection was closed, not because Redis was slow or no
   * connection could be had: worth one retry on another connection.
   */
  private static boolean brokenConnection(JedisConnectionException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SocketTimeoutException || t instanceof DirectTransport.NoConnection) {
        return false;
      }
    }
    return true;
  }

  /** One caller's EVALSHA, its state and, once done, its reply or failure. */
  private static final class Call {
    final Scripts.Script script;
    final List<String> keys;
    final List<String> args;
    final CommandObject<Object> command;
    final long deadlineNanos;
    final Thread caller = Thread.currentThread();
    final AtomicInteger state = new AtomicInteger(QUEUED);
    private Object reply;
    private RuntimeException failure;

    Call(Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos) {
      this.script = script;
      this.keys = keys;
      this.args = args;
      this.command = COMMANDS.evalsha(script.sha(), keys, args);
      this.deadlineNanos = deadlineNanos;
    }

    /** Whether the turn has its reply or failure; only the turn's thread reads and writes it. */
    boolean settled;

    /** A raw reply, or the error Redis answered for this call. */
    void complete(Object raw) {
      if (raw instanceof JedisDataException error) {
        fail(error);
        return;
      }
      try {
        reply = command.getBuilder().build(raw);
      } catch (RuntimeException e) {
        failure = e;
      }
      settled = true;
    }

    void fail(RuntimeException error) {
      if (!settled) {
        failure = error;
        settled = true;
      }
    }

    /** Hands the reply or failure to the caller, unless it gave up waiting. */
    void publish() {
      if (settled && state.compareAndSet(TAKEN, DONE)) {
        LockSupport.unpark(caller);
      }
    }

    Object reply() {
      if (failure != null) {
        throw failure;
      }
      return reply;
    }
  }
}
