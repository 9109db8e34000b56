package io.github.limiter.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** A key's state, replaced whole by compare-and-set; dead once reclaimed or evicted. */
abstract class Entry {

  /** The state of a dead {@link LongEntry}. */
  static final long TOMBSTONE = Long.MIN_VALUE;

  /** The state of a dead {@link SnapshotEntry}. */
  static final long[] DEAD_STATE = new long[0];

  /** A key whose state is one long. */
  static final class LongEntry extends Entry {
    private static final VarHandle STATE;

    static {
      try {
        STATE = MethodHandles.lookup().findVarHandle(LongEntry.class, "state", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    volatile long state;

    LongEntry(long state) {
      this.state = state;
    }

    boolean compareAndSet(long expected, long next) {
      return STATE.compareAndSet(this, expected, next);
    }
  }

  /** A key whose state is an immutable array, replaced whole. */
  static final class SnapshotEntry extends Entry {
    private static final VarHandle STATE;

    static {
      try {
        STATE = MethodHandles.lookup().findVarHandle(SnapshotEntry.class, "state", long[].class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    volatile long[] state;

    SnapshotEntry(long[] state) {
      this.state = state;
    }

    boolean compareAndSet(long[] expected, long[] next) {
      return STATE.compareAndSet(this, expected, next);
    }
  }
}
