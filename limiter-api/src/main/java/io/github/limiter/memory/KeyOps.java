package io.github.limiter.memory;

import static io.github.limiter.memory.Entry.DEAD_STATE;
import static io.github.limiter.memory.Entry.TOMBSTONE;

import io.github.limiter.Decision;
import io.github.limiter.internal.algorithm.LongStateFunction;
import io.github.limiter.internal.algorithm.PolicyFunction;
import io.github.limiter.memory.Entry.LongEntry;
import io.github.limiter.memory.Entry.SnapshotEntry;

/** The operations of the in-memory store on one key's state, each run by its table's one loop. */
final class KeyOps {

  private KeyOps() {}

  // What an attempt of the loop answers besides an operation's own answer, which is never negative.
  /** Another thread changed the state first: try again. */
  static final long LOST = -1;

  /** The entry is dead (reclaimed or evicted): find the key's live one, or stop. */
  static final long DEAD = -2;

  /** How long a full store tells new keys to wait. */
  static final long FULL_RETRY_NANOS = 1_000_000_000L;

  /**
   * What an operation reads of the keys' table: the policy's functions, the store's time, and the
   * decision of a full store. The store's tables extend it; the operations know nothing else.
   */
  abstract static class Target {
    final PolicyFunction function;
    final LongStateFunction single;

    Target(PolicyFunction function) {
      this.function = function;
      this.single = function.single();
    }

    /** Store time, read by every attempt after the state it judges. */
    abstract long now();

    /** The decision when the store is full and the key has no entry. */
    abstract Decision full();
  }

  /**
   * One operation on a key's state, one attempt at a time: from the state read and the clock read
   * after it, an answer (never negative), after publishing the next state by compare-and-set if it
   * changes; or {@link #LOST} if that compare-and-set failed.
   */
  abstract static class Op {
    /** One attempt on the entry: the answer, {@link #LOST}, or {@link #DEAD}. */
    final long attempt(Target table, Entry entry, long permits) {
      if (entry instanceof LongEntry e) {
        long state = e.state;
        return state == TOMBSTONE ? DEAD : onLong(table, e, state, permits);
      }
      SnapshotEntry e = (SnapshotEntry) entry;
      long[] state = e.state;
      return state == DEAD_STATE ? DEAD : onSnapshot(table, e, state, permits);
    }

    abstract long onLong(Target table, LongEntry entry, long state, long permits);

    abstract long onSnapshot(Target table, SnapshotEntry entry, long[] state, long permits);

    /** The answer when the key has no live entry. */
    abstract long absent();

    /** Whether a missing or dead entry is replaced by a fresh one (deciding), or ends the loop. */
    boolean createsKeys() {
      return false;
    }
  }

  /**
   * Admits or rejects, answering 0 or the nanoseconds to wait: the primitive form of a decision.
   * One that keeps decisions also leaves the whole decision for its caller to take.
   */
  static final class Decide extends Op {
    static final int NOTHING = 0;
    static final int ONE_LONG = 1;
    static final int SNAPSHOT = 2;

    final boolean keepsDecision;

    // What the last attempt of a deciding admission judged. The one-long path leaves primitives and
    // the Decision is built after the loop: storing a new object into this long-lived carrier
    // would cost a garbage-collector write barrier on every decision.
    int made;
    long state;
    long now;
    long retry;
    Decision snapshotDecision;

    Decide(boolean keepsDecision) {
      this.keepsDecision = keepsDecision;
    }

    @Override
    long onLong(Target t, LongEntry entry, long state, long permits) {
      long now = t.now();
      long retry = t.single.retryAfter(state, now, permits);
      long next = retry != 0 ? state : t.single.admit(state, now, permits);
      if (retry == 0 && !entry.compareAndSet(state, next)) {
        return LOST;
      }
      if (keepsDecision) {
        this.made = ONE_LONG;
        this.state = next;
        this.now = now;
        this.retry = retry;
      }
      return retry;
    }

    @Override
    long onSnapshot(Target t, SnapshotEntry entry, long[] state, long permits) {
      long now = t.now();
      long retry = t.function.retryAfter(state, now, permits);
      if (retry != 0) {
        if (keepsDecision) {
          made = SNAPSHOT;
          snapshotDecision = t.function.reject(state, now, permits, retry);
        }
        return retry;
      }
      long[] next = state.clone();
      Decision admitted = t.function.admit(next, now, permits);
      if (!entry.compareAndSet(state, next)) {
        return LOST;
      }
      if (keepsDecision) {
        made = SNAPSHOT;
        snapshotDecision = admitted;
      }
      return 0;
    }

    /** The decision the loop made through this admission; the store is full if it made none. */
    Decision decision(Target t) {
      switch (made) {
        case ONE_LONG:
          return retry == 0
              ? t.function.admitted(t.single, state, now)
              : t.function.rejected(t.single, state, now, retry);
        case SNAPSHOT:
          Decision decision = snapshotDecision;
          snapshotDecision = null;
          return decision;
        default:
          return t.full();
      }
    }

    @Override
    long absent() {
      return FULL_RETRY_NANOS;
    }

    @Override
    boolean createsKeys() {
      return true;
    }
  }

  /** tryAcquire's admission, shared: it keeps no decision, so it holds no state of a call. */
  static final Decide TRY_ACQUIRE = new Decide(false);

  /** Each thread's deciding admission: a decision is made on one thread, and calls nothing out. */
  static final ThreadLocal<Decide> DECIDE = ThreadLocal.withInitial(() -> new Decide(true));

  /** Charges permits, admissible or not (debt), creating the key if it has none. */
  static final Op CHARGE = new Adjust(1);

  /** Gives permits back to a live key; an unknown or dead key is fresh already. */
  static final Op REFUND = new Adjust(-1);

  /** Adds {@code sign * permits} to a key's charge: {@link PolicyFunction#adjust}. */
  static final class Adjust extends Op {
    final long sign;

    Adjust(long sign) {
      this.sign = sign;
    }

    @Override
    long onLong(Target t, LongEntry entry, long state, long permits) {
      return entry.compareAndSet(state, t.single.adjust(state, t.now(), sign * permits)) ? 0 : LOST;
    }

    @Override
    long onSnapshot(Target t, SnapshotEntry entry, long[] state, long permits) {
      long[] next = state.clone();
      t.function.adjust(next, t.now(), sign * permits);
      return entry.compareAndSet(state, next) ? 0 : LOST;
    }

    @Override
    long absent() {
      return 0; // a refund: fresh already; a charge: the store is full, and it is lost
    }

    @Override
    boolean createsKeys() {
      return sign > 0;
    }
  }

  /** What {@link #RECLAIM} answers for a key that is not fresh. */
  static final long ALIVE = 1;

  /**
   * Kills a fresh key, answering 0 (dead now, or already); {@link #ALIVE} leaves a key that is not.
   */
  static final Op RECLAIM =
      new Op() {
        @Override
        long onLong(Target t, LongEntry entry, long state, long permits) {
          if (t.single.resetAfter(state, t.now()) != 0) {
            return ALIVE;
          }
          return entry.compareAndSet(state, TOMBSTONE) ? 0 : LOST;
        }

        @Override
        long onSnapshot(Target t, SnapshotEntry entry, long[] state, long permits) {
          if (t.function.resetAfter(state, t.now()) != 0) {
            return ALIVE;
          }
          return entry.compareAndSet(state, DEAD_STATE) ? 0 : LOST;
        }

        @Override
        long absent() {
          return 0;
        }
      };

  /** Kills a key whatever its state (eviction). */
  static final Op KILL =
      new Op() {
        @Override
        long onLong(Target t, LongEntry entry, long state, long permits) {
          return entry.compareAndSet(state, TOMBSTONE) ? 0 : LOST;
        }

        @Override
        long onSnapshot(Target t, SnapshotEntry entry, long[] state, long permits) {
          return entry.compareAndSet(state, DEAD_STATE) ? 0 : LOST;
        }

        @Override
        long absent() {
          return ALIVE; // dead already: killed by another thread
        }
      };
}
