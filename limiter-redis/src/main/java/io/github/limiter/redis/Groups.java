package io.github.limiter.redis;

import io.github.limiter.Decision;
import io.github.limiter.NanoClock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Same-key groups: while a decision on a key is in flight, the decisions that arrive for the same
 * key of the same policy version with the same permits wait for it; then the first of them decides
 * itself and those waiting behind it (up to {@link #MAX}) in one call of decide.lua, which admits
 * as many of the group as fit by each algorithm's own arithmetic and writes the state once. The
 * requests were concurrent, so deciding them one after the other in arrival order at one server
 * instant is a valid serial order, and the group's decisions are exactly those (see decide.lua and
 * {@link CompiledPolicy#decisions}). On a hot key this turns many script calls into one whose
 * server work does not grow with the group; on a key that is not hot nothing waits, and grouping
 * costs a map entry.
 *
 * <p>A caller never waits past its decision timeout: one that is still queued when it ends leaves
 * the queue and is decided by the failure mode, and a group's call runs within the deadline of its
 * first member, which arrived before the others. When Redis does not answer a call, the failure
 * mode decides the callers waiting behind it at once.
 */
final class Groups {

  /** The most requests one call decides. */
  static final int MAX = 64;

  /** How a group is decided. */
  interface Decider {
    /**
     * Decides {@code size} requests of {@code permits} on {@code key}, whose Redis keys are {@code
     * redisKeys}, in one call within {@code deadlineNanos}, in arrival order; never throws.
     */
    Decision[] decide(
        CompiledPolicy c,
        String key,
        List<String> redisKeys,
        long permits,
        int size,
        long deadlineNanos);

    /**
     * The decision of a request that Redis did not answer: its timeout ended while it waited for
     * its turn, or it waited behind a call that Redis did not answer; counted as a failure.
     */
    Decision timedOut(CompiledPolicy c, String key, long permits);
  }

  private record Id(CompiledPolicy c, String key, long permits) {}

  /**
   * A key with a call in flight, and the callers waiting for it, in arrival order. Its Redis keys
   * are built once, for all the groups that follow one another while the key stays hot.
   */
  private static final class Lane {
    final ArrayDeque<Member> waiting = new ArrayDeque<>(4);
    final List<String> redisKeys;
    boolean ended;

    Lane(List<String> redisKeys) {
      this.redisKeys = redisKeys;
    }
  }

  private static final class Member {
    final Thread caller = Thread.currentThread();
    final long deadlineNanos;
    volatile Decision decision;
    volatile RuntimeException failure;
    volatile boolean lead;

    Member(long deadlineNanos) {
      this.deadlineNanos = deadlineNanos;
    }
  }

  private final ConcurrentHashMap<Id, Lane> lanes = new ConcurrentHashMap<>();
  private final Decider decider;
  private final NanoClock clock;
  private final long timeoutNanos;

  /**
   * @param clock the clock of the deadlines
   * @param timeoutNanos a decision's timeout
   */
  Groups(Decider decider, NanoClock clock, long timeoutNanos) {
    this.decider = decider;
    this.clock = clock;
    this.timeoutNanos = timeoutNanos;
  }

  Decision decide(CompiledPolicy c, String key, long permits) {
    Id id = new Id(c, key, permits);
    Member me = new Member(clock.nanos() + timeoutNanos);
    Lane lane;
    for (; ; ) {
      lane = lanes.get(id);
      if (lane == null) {
        Lane mine = new Lane(c.keys(key));
        if (lanes.putIfAbsent(id, mine) == null) {
          return lead(id, mine, List.of(me));
        }
        continue;
      }
      synchronized (lane) {
        if (!lane.ended) {
          lane.waiting.add(me);
          break;
        }
      }
    }
    boolean interrupted = false;
    boolean queued = true;
    boolean abandoned = false;
    while (me.decision == null && me.failure == null && !me.lead) {
      long left = me.deadlineNanos - clock.nanos();
      if (left > 0) {
        LockSupport.parkNanos(this, left);
      } else if (queued) {
        synchronized (lane) {
          abandoned = lane.waiting.remove(me);
        }
        if (abandoned) {
          break; // no group will decide it
        }
        queued = false; // taken into a group, whose call ends by this caller's deadline
      } else {
        LockSupport.park(this);
      }
      interrupted |= Thread.interrupted();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (abandoned) {
      return decider.timedOut(c, key, permits);
    }
    if (me.lead) {
      List<Member> group = new ArrayList<>();
      group.add(me);
      synchronized (lane) {
        while (group.size() < MAX && !lane.waiting.isEmpty()) {
          group.add(lane.waiting.poll());
        }
      }
      return lead(id, lane, group);
    }
    if (me.failure != null) {
      throw me.failure;
    }
    return me.decision;
  }

  /**
   * Decides {@code group} (its first member the caller), hands the lane to the first caller waiting
   * or ends it, and gives each member its decision.
   */
  private Decision lead(Id id, Lane lane, List<Member> group) {
    Decision[] decisions = null;
    RuntimeException failure = null;
    try {
      decisions =
          decider.decide(
              id.c(),
              id.key(),
              lane.redisKeys,
              id.permits(),
              group.size(),
              group.get(0).deadlineNanos);
    } catch (RuntimeException e) {
      failure = e;
    }
    // Redis did not answer (the failure mode decided): those waiting would most likely wait for
    // nothing too, so the failure mode decides them at once, without a call.
    boolean answered = failure == null && decisions[0].isVerified();
    for (int m = 1; m < group.size(); m++) {
      Member member = group.get(m);
      if (failure != null) {
        member.failure = failure;
      } else {
        member.decision = decisions[m];
      }
      LockSupport.unpark(member.caller);
    }
    // Only then the next lead: members that come back for the key meanwhile join its group, so
    // that on a hot key fewer, larger groups share the calls.
    List<Member> drained = List.of();
    Member next;
    synchronized (lane) {
      if (!answered && !lane.waiting.isEmpty()) {
        drained = new ArrayList<>(lane.waiting);
        lane.waiting.clear();
      }
      next = lane.waiting.poll();
      if (next == null) {
        lane.ended = true;
        lanes.remove(id, lane);
      }
    }
    if (next != null) {
      next.lead = true;
      LockSupport.unpark(next.caller);
    }
    for (Member member : drained) {
      try {
        member.decision = decider.timedOut(id.c(), id.key(), id.permits());
      } catch (RuntimeException e) {
        member.failure = e;
      }
      LockSupport.unpark(member.caller);
    }
    if (failure != null) {
      throw failure;
    }
    return decisions[0];
  }
}
