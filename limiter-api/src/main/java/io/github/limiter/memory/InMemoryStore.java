package io.github.limiter.memory;

import io.github.limiter.Decision;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.algorithm.LimitFunction;
import io.github.limiter.internal.algorithm.LongStateFunction;
import io.github.limiter.internal.algorithm.PolicyFunction;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A lock-free, bounded store in this JVM's memory.
 *
 * <p>Each key's state is one atomic {@code long} (single-limit token bucket, leaky bucket and fixed
 * window: no allocation to decide) or one immutable {@code long[]} snapshot replaced by
 * compare-and-set (the other algorithms and multi-limit policies: one array per admission). No lock
 * is shared between keys, and there is no thread per key.
 *
 * <p><b>Bounded.</b> At most {@code maxKeys} keys are held. A key whose state is fresh again (a
 * full bucket, an empty window) is reclaimed by an incremental sweep run on inserts: forgetting it
 * changes no decision (for a limit with a non-default {@code initial}, the key starts again from
 * its initial tokens or level, which is stricter, never looser). When the bound is reached and
 * nothing is reclaimable, {@link Overflow} decides; see there for why eviction cannot be used to
 * reset a limit, one's own or another policy's. A concurrency key that holds permits is never
 * evicted: forgetting it would admit more than its limit, and such keys are bounded by the requests
 * in flight.
 */
public final class InMemoryStore implements RateLimitStore {

  /** What to do with a new key when the store is full and no key is reclaimable. */
  public enum Overflow {
    /**
     * Evict, among a sample of the keys of the policy that holds the most keys, the one whose
     * forgetting gives back the least share of its capacity (then the one nearest to fresh). A
     * client flooding new keys makes its own policy the largest and creates keys that have used a
     * few requests each, so they are the victims, while a busy key that used its limit is kept, in
     * that policy or any other: flooding cannot reset a limit. A new key always finds room.
     */
    EVICT("evict"),
    /** Reject requests of new keys as {@link Decision.Outcome#UNAVAILABLE}; known keys go on. */
    REJECT_NEW_KEYS("reject-new-keys");

    private final String configName;

    Overflow(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  /** A safe default: about 10 MB of state for single-long algorithms with short keys. */
  public static final int DEFAULT_MAX_KEYS = 100_000;

  private static final long TOMBSTONE = Long.MIN_VALUE;
  private static final long[] DEAD_STATE = new long[0];
  // What an attempt of the loop answers besides an operation's own answer, which is never negative:
  // another thread changed the state first, try again (LOST); the entry is dead (reclaimed or
  // evicted), find the key's live one, or stop (DEAD).
  private static final long LOST = -1;
  private static final long DEAD = -2;

  /** How long a full store tells new keys to wait. */
  static final long FULL_RETRY_NANOS = 1_000_000_000L;

  private final NanoClock clock;
  private final long epoch;
  private final int maxKeys;
  private final ConcurrentHashMap<Policy, Table> tables = new ConcurrentHashMap<>();
  private final Evictor evictor;
  private final BlockTable blocks;

  private InMemoryStore(Builder builder) {
    this.clock = builder.clock;
    this.epoch = clock.nanos();
    this.maxKeys = builder.maxKeys;
    this.evictor = new Evictor(builder.maxKeys, builder.overflow, tables.values());
    this.blocks = new BlockTable(builder.maxKeys);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A store with the defaults: monotonic clock, {@value #DEFAULT_MAX_KEYS} keys, evict. */
  public static InMemoryStore create() {
    return builder().build();
  }

  @Override
  public TimeSource timeSource() {
    return clock == NanoClock.system() ? TimeSource.LOCAL_MONOTONIC : TimeSource.CALLER;
  }

  /** The number of keys held now. */
  public int size() {
    return evictor.size();
  }

  /** How many keys were evicted to make room since the store started. */
  public long evictions() {
    return evictor.evictions();
  }

  /** The configured bound on keys. */
  public int maxKeys() {
    return maxKeys;
  }

  /** Store time: nanoseconds since this store was created, so that windows align to it. */
  private long now() {
    return clock.nanos() - epoch;
  }

  private Table table(Policy policy) {
    Table table = tables.get(policy);
    return table != null ? table : tables.computeIfAbsent(policy, Table::new);
  }

  /** The policy's keys, found once: its decisions skip the lookup of the policy. */
  @Override
  public PolicyStore bind(Policy policy) {
    return table(Objects.requireNonNull(policy, "policy"));
  }

  @Override
  public Decision decide(Policy policy, String key, long permits) {
    return table(policy).decide(key, permits);
  }

  /** As {@link #decide}, without allocating on the one-long path. */
  @Override
  public long tryAcquire(Policy policy, String key, long permits) {
    return table(policy).tryAcquire(key, permits);
  }

  @Override
  public void adjust(Policy policy, String key, long delta) {
    table(policy).adjust(key, delta);
  }

  @Override
  public long block(Policy policy, String key, long nanos) {
    return blocks.block(policy.name() + '\n' + key, clock.nanos(), nanos);
  }

  /**
   * The keys of one policy, and its decisions.
   *
   * <p>Every operation on a key's state goes through {@link #run}, the one compare-and-set loop.
   * Each attempt reads the clock after the state it judges, never before: a thread held between the
   * two readings would judge a state that another thread moved into a later window by an earlier
   * time, and the sliding counter would take that window's counts for zero and overwrite them.
   */
  final class Table implements PolicyStore {
    final Policy policy;
    final PolicyFunction function;
    final LongStateFunction single;
    final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    Table(Policy policy) {
      this.policy = policy;
      this.function = PolicyFunction.of(policy);
      this.single = function.single();
    }

    @Override
    public Policy policy() {
      return policy;
    }

    /** Store time, read by every attempt after the state it judges. */
    long now() {
      return InMemoryStore.this.now();
    }

    @Override
    public Decision decide(String key, long permits) {
      // The loop answers a primitive; the decision comes out through this thread's admission, so
      // that the one-long path allocates the Decision alone (AllocationTest). A carrier of this
      // call would be removed by escape analysis only while the loop is inlined here, which a
      // busy application's profile does not promise.
      Decide decide = DECIDE.get();
      decide.made = Decide.NOTHING;
      run(key, liveEntry(key), decide, permits);
      return decide.decision(this);
    }

    @Override
    public long tryAcquire(String key, long permits) {
      return run(key, liveEntry(key), TRY_ACQUIRE, permits);
    }

    @Override
    public void adjust(String key, long delta) {
      if (delta > 0) {
        run(key, liveEntry(key), CHARGE, delta); // debt on a new key too
      } else if (delta < 0) {
        run(key, entries.get(key), REFUND, -delta); // an unknown key is fresh already
      }
    }

    /**
     * The one compare-and-set loop: tries {@code op} on the key's state until no other thread
     * changed it in between, and answers what {@code op} answered. A dead entry is replaced by a
     * live one when {@code op} creates keys, and ends the loop otherwise; so does a missing entry
     * (null: the key is unknown, or the store is full).
     */
    long run(String key, Entry entry, Op op, long permits) {
      for (; ; ) {
        if (entry == null) {
          return op.absent();
        }
        long answer = op.attempt(this, entry, permits);
        if (answer == DEAD) {
          if (!op.createsKeys()) {
            return op.absent();
          }
          if (entries.remove(key, entry)) {
            evictor.removed();
          }
          entry = liveEntry(key);
        } else if (answer != LOST) {
          return answer;
        }
      }
    }

    /** The key's entry, a fresh one if it has none; null if the store is full. */
    private Entry liveEntry(String key) {
      Entry entry = entries.get(key);
      return entry != null ? entry : insert(key);
    }

    /**
     * Adds a fresh entry for {@code key}, or returns the one a racing thread added; null if full.
     */
    private Entry insert(String key) {
      if (!evictor.roomForNewKey()) {
        return null;
      }
      long now = now();
      Entry fresh =
          single != null
              ? new LongEntry(single.fresh(now))
              : new SnapshotEntry(function.fresh(now));
      Entry raced = entries.putIfAbsent(key, fresh);
      if (raced != null) {
        return raced;
      }
      evictor.added();
      return fresh;
    }

    private Decision full() {
      LimitFunction first = PolicyFunction.function(policy.algorithm(), policy.limits().get(0));
      return Decision.unavailable(policy.name(), first.limit(), FULL_RETRY_NANOS);
    }

    // For the Evictor: read-only probes, and the two ways an entry dies, through the one loop.

    /** Kills the entry if its state is fresh; true if it is dead now. */
    boolean reclaimIfFresh(Entry entry) {
      return run(null, entry, RECLAIM, 0) != ALIVE;
    }

    /** Kills the entry whatever its state; true if this call killed it, false if it was dead. */
    boolean kill(Entry entry) {
      return run(null, entry, KILL, 0) == 0;
    }

    /**
     * From 0 (fresh) to 1 (exhausted): the share of its capacity the key would regain if forgotten.
     */
    double usedShare(Entry entry) {
      if (entry instanceof LongEntry e) {
        long state = e.state;
        long burst = single.limit().burst();
        return state == TOMBSTONE ? 0 : (double) (burst - single.remaining(state, now())) / burst;
      }
      long[] state = ((SnapshotEntry) entry).state;
      return state == DEAD_STATE ? 0 : function.usedShare(state, now());
    }

    /** Nanoseconds until the key is fresh; 0 if it is, or dead. */
    long resetAfter(Entry entry) {
      if (entry instanceof LongEntry e) {
        long state = e.state;
        return state == TOMBSTONE ? 0 : single.resetAfter(state, now());
      }
      long[] state = ((SnapshotEntry) entry).state;
      return state == DEAD_STATE ? 0 : function.resetAfter(state, now());
    }
  }

  /**
   * One operation on a key's state, one attempt at a time: from the state read and the clock read
   * after it, an answer (never negative), after publishing the next state by compare-and-set if it
   * changes; or {@link #LOST} if that compare-and-set failed.
   */
  abstract static class Op {
    /** One attempt on the entry: the answer, {@link #LOST}, or {@link #DEAD}. */
    final long attempt(Table table, Entry entry, long permits) {
      if (entry instanceof LongEntry e) {
        long state = e.state;
        return state == TOMBSTONE ? DEAD : onLong(table, e, state, permits);
      }
      SnapshotEntry e = (SnapshotEntry) entry;
      long[] state = e.state;
      return state == DEAD_STATE ? DEAD : onSnapshot(table, e, state, permits);
    }

    abstract long onLong(Table table, LongEntry entry, long state, long permits);

    abstract long onSnapshot(Table table, SnapshotEntry entry, long[] state, long permits);

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
  private static final class Decide extends Op {
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
    long onLong(Table t, LongEntry entry, long state, long permits) {
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
    long onSnapshot(Table t, SnapshotEntry entry, long[] state, long permits) {
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
    Decision decision(Table t) {
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
  private static final Decide TRY_ACQUIRE = new Decide(false);

  /** Each thread's deciding admission: a decision is made on one thread, and calls nothing out. */
  private static final ThreadLocal<Decide> DECIDE = ThreadLocal.withInitial(() -> new Decide(true));

  /** Charges permits, admissible or not (debt), creating the key if it has none. */
  private static final Op CHARGE = new Adjust(1);

  /** Gives permits back to a live key; an unknown or dead key is fresh already. */
  private static final Op REFUND = new Adjust(-1);

  /** Adds {@code sign * permits} to a key's charge: {@link PolicyFunction#adjust}. */
  private static final class Adjust extends Op {
    final long sign;

    Adjust(long sign) {
      this.sign = sign;
    }

    @Override
    long onLong(Table t, LongEntry entry, long state, long permits) {
      return entry.compareAndSet(state, t.single.adjust(state, t.now(), sign * permits)) ? 0 : LOST;
    }

    @Override
    long onSnapshot(Table t, SnapshotEntry entry, long[] state, long permits) {
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
  private static final long ALIVE = 1;

  /**
   * Kills a fresh key, answering 0 (dead now, or already); {@link #ALIVE} leaves a key that is not.
   */
  private static final Op RECLAIM =
      new Op() {
        @Override
        long onLong(Table t, LongEntry entry, long state, long permits) {
          if (t.single.resetAfter(state, t.now()) != 0) {
            return ALIVE;
          }
          return entry.compareAndSet(state, TOMBSTONE) ? 0 : LOST;
        }

        @Override
        long onSnapshot(Table t, SnapshotEntry entry, long[] state, long permits) {
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
  private static final Op KILL =
      new Op() {
        @Override
        long onLong(Table t, LongEntry entry, long state, long permits) {
          return entry.compareAndSet(state, TOMBSTONE) ? 0 : LOST;
        }

        @Override
        long onSnapshot(Table t, SnapshotEntry entry, long[] state, long permits) {
          return entry.compareAndSet(state, DEAD_STATE) ? 0 : LOST;
        }

        @Override
        long absent() {
          return ALIVE; // dead already: killed by another thread
        }
      };

  /** A key's state, replaced whole by compare-and-set; dead once reclaimed or evicted. */
  abstract static class Entry {}

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

  /** Configures an {@link InMemoryStore}. */
  public static final class Builder {
    private NanoClock clock = NanoClock.system();
    private int maxKeys = DEFAULT_MAX_KEYS;
    private Overflow overflow = Overflow.EVICT;

    private Builder() {}

    /**
     * The clock; the JVM's monotonic clock by default. Tests and the replay tool drive their own.
     */
    public Builder clock(NanoClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The most keys held at once, over all policies; {@value #DEFAULT_MAX_KEYS} by default. */
    public Builder maxKeys(int maxKeys) {
      if (maxKeys < 1) {
        throw new IllegalArgumentException("maxKeys must be at least 1, was " + maxKeys);
      }
      this.maxKeys = maxKeys;
      return this;
    }

    /** What happens to new keys when the store is full; {@link Overflow#EVICT} by default. */
    public Builder overflow(Overflow overflow) {
      this.overflow = Objects.requireNonNull(overflow, "overflow");
      return this;
    }

    public InMemoryStore build() {
      return new InMemoryStore(this);
    }
  }
}
