package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Same-key coalescing: while a decision on some keys is in flight, decisions that arrive for the
 * same keys wait for it, and then one call of the decide script decides those waiting (up to the
 * bound) in arrival order, each reading what the one before wrote (see decide.lua); each caller
 * gets its own decision. The requests were concurrent, so deciding them one after the other at one
 * server instant is a valid serial order: the group is exactly what separate calls in that order
 * would decide. On a hot key this turns many script calls into one, and the server's work per
 * decision into a few commands; on keys that are not hot nothing waits, so it costs a map entry.
 *
 * <p>Whoever finds a key free calls at once; when its call ends, it hands the turn to the first
 * caller waiting, which gathers its group when it runs (so that callers who queued while it woke up
 * go out with it) and calls on its own thread. Only decisions of one script with the same keys and
 * the same parameters group (a policy's plans and policies each have keys of their own); their
 * permits and caller times may differ. Other scripts pass through. A caller never waits past its
 * deadline: the group's call runs within the earliest deadline of its members.
 */
final class Coalescer implements Transport {

  private static final int QUEUED = 0;
  private static final int TAKEN = 1;
  private static final int LEAD = 2;
  private static final int DONE = 3;
  private static final int ABANDONED = 4;

  /** The width of one decision's reply in a decide script's reply. */
  private static final int REPLY = 6;

  private final Transport next;
  private final int maxGroup;
  private final NanoClock clock;

  /** The keys with a call in flight, by their first key, and the callers waiting on them. */
  private final ConcurrentHashMap<String, Lane> lanes = new ConcurrentHashMap<>();

  /** For tests and the benchmark: script calls made for groups, and the decisions in them. */
  final LongAdder groups = new LongAdder();

  final LongAdder grouped = new LongAdder();

  /** For tests: the largest group decided in one call. */
  final AtomicInteger largestGroup = new AtomicInteger();

  /**
   * @param maxGroup the most decisions one script call decides, at least 2
   * @param clock the clock of the deadlines
   */
  Coalescer(Transport next, int maxGroup, NanoClock clock) {
    if (maxGroup < 2) {
      throw new IllegalArgumentException("a group must hold at least 2, was " + maxGroup);
    }
    this.next = next;
    this.maxGroup = maxGroup;
    this.clock = clock;
  }

  @Override
  public Object eval(
      Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos)
      throws Exception {
    if (!script.groups()) {
      return next.eval(script, keys, args, deadlineNanos);
    }
    Member me = new Member(script, keys, args, deadlineNanos);
    String id = keys.get(0);
    for (; ; ) {
      Lane lane = lanes.get(id);
      if (lane == null) {
        lane = new Lane();
        if (lanes.putIfAbsent(id, lane) == null) {
          me.state.set(LEAD);
          lead(id, lane, me);
          return me.reply();
        }
        continue;
      }
      if (!lane.push(me)) {
        continue; // its last call ended meanwhile: the key is free
      }
      if (await(me)) {
        lead(id, lane, me);
      }
      return me.reply();
    }
  }

  /** Waits until the caller's decision is in (false), or it is to call for a group (true). */
  private boolean await(Member me) throws Exception {
    for (; ; ) {
      int s = me.state.get();
      if (s == DONE) {
        return false;
      }
      if (s == LEAD) {
        return true;
      }
      long left = me.deadlineNanos - clock.nanos();
      if (left <= 0 || Thread.interrupted()) {
        boolean interrupted = left > 0;
        if (me.state.compareAndSet(QUEUED, ABANDONED) || me.state.compareAndSet(TAKEN, ABANDONED)) {
          if (interrupted) {
            throw new InterruptedException("interrupted while waiting for Redis");
          }
          throw new TimeoutException("no reply from Redis within the decision timeout");
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
        continue; // decided, or handed the turn, meanwhile
      }
      LockSupport.parkNanos(this, left);
    }
  }

  /**
   * Calls for the group that {@code head} leads, gathered now: {@code head} and the callers waiting
   * that can join it, so that those who queued while the caller woke up go out too. Then hands the
   * turn to the first caller still waiting, or frees the key.
   */
  private void lead(String id, Lane lane, Member head) {
    List<Member> group = gather(lane, head);
    call(group);
    Member next = nextHead(lane);
    if (next == null) {
      lanes.remove(id, lane);
    }
    // The next caller first, so that its call goes out while these callers wake up.
    if (next != null) {
      LockSupport.unpark(next.caller);
    }
    for (Member m : group) {
      m.publish();
    }
  }

  /**
   * {@code head}, then the callers waiting after it whose decisions can join its call, in arrival
   * order, up to the bound. Only the caller leading the lane's call runs it.
   */
  private List<Member> gather(Lane lane, Member head) {
    lane.drain();
    List<Member> group = new ArrayList<>(Math.min(lane.waiting.size() + 1, maxGroup));
    group.add(head);
    for (Iterator<Member> it = lane.waiting.iterator(); it.hasNext() && group.size() < maxGroup; ) {
      Member m = it.next();
      if (m.state.get() != QUEUED) {
        it.remove(); // gave up waiting
      } else if (head.joins(m)) {
        it.remove();
        if (m.state.compareAndSet(QUEUED, TAKEN)) {
          group.add(m);
        }
      }
    }
    return group;
  }

  /**
   * The first caller still waiting, made to lead the next call; or null, the lane closed, if none
   * waits. Only the caller leading the lane's call runs it.
   */
  private static Member nextHead(Lane lane) {
    for (; ; ) {
      lane.drain();
      for (Member m = lane.waiting.poll(); m != null; m = lane.waiting.poll()) {
        if (m.state.compareAndSet(QUEUED, LEAD)) {
          return m;
        }
      }
      if (lane.close()) {
        return null;
      }
      // a caller arrived meanwhile
    }
  }

  /** One script call for the group; settles each member with its own reply or the failure. */
  private void call(List<Member> group) {
    Member head = group.get(0);
    int size = group.size();
    List<String> args = head.args;
    long deadline = head.deadlineNanos;
    if (size > 1) {
      args = new ArrayList<>(head.args.size() + 2 * (size - 1));
      args.addAll(head.args);
      for (int i = 1; i < size; i++) {
        Member m = group.get(i);
        args.add(m.args.get(0)); // its now ('' under server time)
        args.add(m.args.get(1)); // its permits
        deadline = m.deadlineNanos - deadline < 0 ? m.deadlineNanos : deadline;
      }
    }
    groups.increment();
    grouped.add(size);
    largestGroup.accumulateAndGet(size, Math::max);
    Object reply;
    try {
      reply = next.eval(head.script, head.keys, args, deadline);
    } catch (Exception e) {
      for (Member m : group) {
        m.failure = m.caller == Thread.currentThread() ? e : forOthers(e);
      }
      return;
    }
    if (!(reply instanceof List<?> values) || values.size() != REPLY * size) {
      IllegalStateException e =
          new IllegalStateException(
              "unexpected reply from " + head.script.name() + " for " + size + ": " + reply);
      group.forEach(m -> m.failure = e);
      return;
    }
    for (int i = 0; i < size; i++) {
      group.get(i).reply = size == 1 ? values : values.subList(REPLY * i, REPLY * (i + 1));
    }
  }

  /** An interrupt belongs to the thread that made the call; the others see their call fail. */
  private static Exception forOthers(Exception e) {
    if (e instanceof InterruptedException) {
      TimeoutException failure =
          new TimeoutException("the call deciding this request with others was interrupted");
      failure.initCause(e);
      return failure;
    }
    return e;
  }

  @Override
  public String nodeOf(String key) {
    return next.nodeOf(key);
  }

  @Override
  public Set<String> nodes() {
    return next.nodes();
  }

  /** For tests: the keys with a call in flight. */
  int lanes() {
    return lanes.size();
  }

  /** For tests: the callers arrived on keys with a call in flight, not yet taken by its caller. */
  int waiting() {
    int n = 0;
    for (Lane lane : lanes.values()) {
      for (Member m = lane.arrived.get(); m != null && m != Lane.CLOSED; m = m.below) {
        n += m.state.get() == QUEUED ? 1 : 0;
      }
    }
    return n;
  }

  /** The transport calls go through. */
  Transport next() {
    return next;
  }

  @Override
  public void close() {
    next.close();
  }

  /**
   * Keys with a call in flight, and the callers waiting for it. Arrivals push themselves on a
   * lock-free stack; the caller leading the call (one at a time, handed on by the LEAD state) moves
   * them, in arrival order, to {@code waiting}, which only it touches.
   */
  private static final class Lane {
    /** Marks a lane whose last call has ended with nobody waiting: callers take the key anew. */
    private static final Member CLOSED = new Member(null, List.of(), List.of(), 0);

    final AtomicReference<Member> arrived = new AtomicReference<>();

    /** The callers waiting, in arrival order; only the leading caller reads and writes it. */
    final ArrayDeque<Member> waiting = new ArrayDeque<>();

    /** Adds a caller; false if the lane is closed. */
    boolean push(Member m) {
      for (Member top = arrived.get(); top != CLOSED; top = arrived.get()) {
        m.below = top;
        if (arrived.compareAndSet(top, m)) {
          return true;
        }
      }
      return false;
    }

    /** Moves the callers arrived since the last drain to the end of {@code waiting}, in order. */
    void drain() {
      Member top = arrived.getAndSet(null);
      if (top == null) {
        return;
      }
      ArrayDeque<Member> newest = new ArrayDeque<>();
      for (Member m = top; m != null; m = m.below) {
        newest.addFirst(m);
      }
      for (Member m : newest) {
        m.below = null;
        waiting.addLast(m);
      }
    }

    /** Closes the lane if nobody arrived since the last drain. */
    boolean close() {
      return arrived.compareAndSet(null, CLOSED);
    }
  }

  /** One caller's decision, its state and, once done, its reply or failure. */
  private static final class Member {
    final Scripts.Script script;
    final List<String> keys;
    final List<String> args;
    final long deadlineNanos;
    final Thread caller = Thread.currentThread();
    final AtomicInteger state = new AtomicInteger(QUEUED);

    /** The caller that arrived before this one, while on the lane's stack. */
    Member below;

    private Object reply;
    private Exception failure;

    Member(Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos) {
      this.script = script;
      this.keys = keys;
      this.args = args;
      this.deadlineNanos = deadlineNanos;
    }

    /**
     * Whether {@code other} can be decided in this one's call: the same script, keys and parameters
     * (ARGV from the third on); its time and permits ride along.
     */
    boolean joins(Member other) {
      if (other.script != script || !other.keys.equals(keys)) {
        return false;
      }
      int n = args.size();
      if (other.args.size() != n) {
        return false;
      }
      for (int i = 2; i < n; i++) {
        if (!args.get(i).equals(other.args.get(i))) {
          return false;
        }
      }
      return true;
    }

    /** Hands the reply or failure to the caller, unless it gave up waiting. */
    void publish() {
      for (int s = state.get(); s == TAKEN || s == LEAD; s = state.get()) {
        if (state.compareAndSet(s, DONE)) {
          if (caller != Thread.currentThread()) {
            LockSupport.unpark(caller);
          }
          return;
        }
      }
    }

    Object reply() throws Exception {
      if (failure != null) {
        throw failure;
      }
      return reply;
    }
  }
}
