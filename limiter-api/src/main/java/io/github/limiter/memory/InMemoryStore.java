package io.github.limiter.memory;

import static io.github.limiter.memory.Entry.DEAD_STATE;
import static io.github.limiter.memory.Entry.TOMBSTONE;
import static io.github.limiter.memory.KeyOps.ALIVE;
import static io.github.limiter.memory.KeyOps.CHARGE;
import static io.github.limiter.memory.KeyOps.DEAD;
import static io.github.limiter.memory.KeyOps.DECIDE;
import static io.github.limiter.memory.KeyOps.FULL_RETRY_NANOS;
import static io.github.limiter.memory.KeyOps.KILL;
import static io.github.limiter.memory.KeyOps.LOST;
import static io.github.limiter.memory.KeyOps.RECLAIM;
import static io.github.limiter.memory.KeyOps.REFUND;
import static io.github.limiter.memory.KeyOps.TRY_ACQUIRE;

import io.github.limiter.Decision;
import io.github.limiter.LiveVersions;
import io.github.limiter.NanoClock;
import io.github.limiter.Peek;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.UpstreamBlocks;
import io.github.limiter.internal.algorithm.LimitFunction;
import io.github.limiter.internal.algorithm.PolicyFunction;
import io.github.limiter.memory.Entry.LongEntry;
import io.github.limiter.memory.Entry.SnapshotEntry;
import io.github.limiter.memory.KeyOps.Decide;
import io.github.limiter.memory.KeyOps.Op;
import java.time.Clock;
import java.time.Instant;
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
 *
 * <p><b>Live limits.</b> {@link #rebind} gives a policy's next version a table of its own that
 * takes each key from the table it replaces at the key's first use, carrying its state over (see
 * {@link PolicyFunction#carry}); the replaced table forwards whatever still reaches it to its
 * successor, so that every decision is made under one version.
 */
public final class InMemoryStore implements RateLimitStore, LiveVersions, Peek, UpstreamBlocks {

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

  /** The table was replaced by a new version of its policy: ask that one. */
  private static final long MOVED = -3;

  /** What a replaced table hands out instead of a fresh entry: dead, so that the key moves on. */
  private static final Entry MOVED_ENTRY = new SnapshotEntry(DEAD_STATE);

  private final NanoClock clock;
  private final long epoch;

  /** Wall time at creation in nanoseconds since the epoch: store time plus it is wall time. */
  private final long epochOffset;

  private final int maxKeys;

  /** By policy, and by an identity of their own for the tables of {@link #rebind}. */
  private final ConcurrentHashMap<Object, Table> tables = new ConcurrentHashMap<>();

  private final Evictor evictor;
  private final BlockTable blocks;

  /** Slots of {@link #recent}, a power of two. */
  private static final int RECENT = 64;

  /**
   * The tables of the first policies decided, by the policy's identity, so that most decisions by
   * policy skip the map's lookup: a slot is filled once and never replaced, so it is read by every
   * thread and written by none after that. A race that reads a slot as it is filled is benign: a
   * table's fields that a decision reads are final (its successor is volatile).
   */
  private final Table[] recent = new Table[RECENT];

  private InMemoryStore(Builder builder) {
    this.clock = builder.clock;
    this.epoch = clock.nanos();
    Instant wall = builder.wallClock.instant();
    this.epochOffset = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
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
    int h = policy.hashCode();
    int slot = (h ^ (h >>> 16)) & (RECENT - 1);
    Table table = recent[slot];
    if (table != null && table.policy == policy) {
      return table;
    }
    table = tables.get(policy);
    if (table == null) {
      table = tables.computeIfAbsent(policy, p -> new Table(policy, null));
    }
    if (recent[slot] == null) {
      recent[slot] = table; // once per slot: no thread writes a slot another is reading
    }
    return table;
  }

  /** The policy's keys, found once: its decisions skip the lookup of the policy. */
  @Override
  public PolicyStore bind(Policy policy) {
    return table(Objects.requireNonNull(policy, "policy"));
  }

  /**
   * A table for {@code next} that takes over the keys of {@code bound}: each at its first use, with
   * its state carried over by {@link PolicyFunction#carry}.
   */
  @Override
  public PolicyStore rebind(PolicyStore bound, Policy next) {
    Objects.requireNonNull(next, "next");
    Table previous = own(bound);
    Policy old = previous.policy;
    if (!old.name().equals(next.name()) || old.algorithm() != next.algorithm()) {
      throw new IllegalArgumentException(
          "a new version of policy '"
              + old.name()
              + "' keeps its name and algorithm "
              + old.algorithm()
              + ", was "
              + next);
    }
    synchronized (previous.chain) {
      if (previous.successor != null) {
        throw new IllegalArgumentException("already replaced: " + old);
      }
      Table table = new Table(next, previous);
      tables.put(new Object(), table);
      previous.successor = table;
      return table;
    }
  }

  /** {@code bound} as this store's table. */
  private Table own(PolicyStore bound) {
    if (!(bound instanceof Table table) || table.store() != this) {
      throw new IllegalArgumentException("not a policy bound by this store: " + bound);
    }
    return table;
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
  public Decision peek(PolicyStore bound, String key) {
    return own(bound).peek(key);
  }

  @Override
  public Decision peek(Policy policy, String key) {
    return table(policy).peek(key);
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
  final class Table extends KeyOps.Target implements PolicyStore {
    final Policy policy;
    final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    /** The table of the policy's version before, whose keys this one takes over; or null. */
    private final Table predecessor;

    /** Store time when this version replaced its predecessor: when the keys' states carry over. */
    private final long since;

    /** The table of the policy's next version, once there is one. */
    volatile Table successor;

    /**
     * The lock of this table's versions, one for all of them: a key moves from version to version
     * under it, and no version is added meanwhile, so that no two versions take one key at once.
     */
    final Object chain;

    Table(Policy policy, Table predecessor) {
      super(PolicyFunction.of(policy, epochOffset));
      this.policy = policy;
      this.predecessor = predecessor;
      this.chain = predecessor != null ? predecessor.chain : new Object();
      this.since = now();
    }

    InMemoryStore store() {
      return InMemoryStore.this;
    }

    @Override
    public Policy policy() {
      return policy;
    }

    /** Store time, read by every attempt after the state it judges. */
    @Override
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
      for (Table t = this; ; t = t.successor) {
        decide.made = Decide.NOTHING;
        if (t.run(key, t.liveEntry(key), decide, permits) != MOVED) {
          return decide.decision(t);
        }
      }
    }

    @Override
    public long tryAcquire(String key, long permits) {
      long answer = run(key, liveEntry(key), TRY_ACQUIRE, permits);
      return answer != MOVED ? answer : successor.tryAcquire(key, permits);
    }

    @Override
    public void adjust(String key, long delta) {
      long answer = 0;
      if (delta > 0) {
        answer = run(key, liveEntry(key), CHARGE, delta); // debt on a new key too
      } else if (delta < 0) {
        answer = run(key, entries.get(key), REFUND, -delta); // an unknown key is fresh already
      }
      if (answer == MOVED) {
        successor.adjust(key, delta);
      }
    }

    /**
     * The key's state in the policy's newest version, read without moving or changing it; a key
     * that no version holds reads as fresh.
     */
    Decision peek(String key) {
      Table newest = this;
      while (newest.successor != null) {
        newest = newest.successor;
      }
      long[] state = newest.look(key);
      long now = newest.now(); // after the state, as every attempt reads it
      return newest.function.peek(state != null ? state : newest.function.fresh(now), now);
    }

    /** As {@link #take}, read only: the key's state in this table's layout, or null. */
    private long[] look(String key) {
      Entry entry = entries.get(key);
      long single = entry instanceof LongEntry e ? e.state : TOMBSTONE; // read once
      long[] state = entry instanceof SnapshotEntry e ? e.state : null;
      state = single != TOMBSTONE ? new long[] {single} : state;
      if ((state == null || state == DEAD_STATE) && predecessor != null) {
        long[] old = predecessor.look(key);
        return old != null ? function.carry(predecessor.function, old, since) : null;
      }
      return state == DEAD_STATE ? null : state;
    }

    /**
     * The one compare-and-set loop: tries {@code op} on the key's state until no other thread
     * changed it in between, and answers what {@code op} answered. A dead entry is replaced by a
     * live one when {@code op} creates keys, and ends the loop otherwise; so does a missing entry
     * (null: the key is unknown, or the store is full). In a replaced table, a dead or missing
     * entry of a key answers {@link #MOVED}: the key lives on in the successor.
     */
    long run(String key, Entry entry, Op op, long permits) {
      for (; ; ) {
        if (entry == null) {
          return key != null && successor != null ? MOVED : op.absent();
        }
        long answer = op.attempt(this, entry, permits);
        if (answer == DEAD) {
          if (key != null && successor != null) {
            return MOVED;
          }
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
     * Adds a fresh entry for {@code key}, or returns the one a racing thread added; null if full. A
     * table that replaced another takes the key's state from there, if it has one.
     */
    private Entry insert(String key) {
      if (successor != null) {
        return MOVED_ENTRY;
      }
      if (predecessor != null) {
        return takeOver(key);
      }
      if (!evictor.roomForNewKey()) {
        return null;
      }
      Entry fresh = entry(null, now());
      Entry raced = entries.putIfAbsent(key, fresh);
      if (raced != null) {
        return raced;
      }
      evictor.added();
      if (successor != null) {
        // Replaced meanwhile: the successor may have looked for this key already, so it moves on.
        // (A request that found this entry in the instant before, a key's very first, is charged
        // here alone.)
        kill(fresh);
        return MOVED_ENTRY;
      }
      return fresh;
    }

    /** A live entry with {@code state} (in this table's layout), or a fresh one if null. */
    private Entry entry(long[] state, long now) {
      if (single != null) {
        return new LongEntry(state != null ? state[0] : single.fresh(now));
      }
      return new SnapshotEntry(state != null ? state : function.fresh(now));
    }

    /**
     * The key's entry, with the state it had in the tables this one replaced: one thread per key
     * takes it, so that no racing thread starts the key fresh meanwhile.
     */
    private Entry takeOver(String key) {
      if (!predecessor.holds(key) && !evictor.roomForNewKey()) {
        return null;
      }
      synchronized (chain) {
        if (successor != null) {
          return MOVED_ENTRY; // replaced meanwhile: the key moves on to the newest version
        }
        return entries.computeIfAbsent(
            key,
            k -> {
              long[] old = predecessor.take(k);
              evictor.added();
              return entry(
                  old != null ? function.carry(predecessor.function, old, since) : null, now());
            });
      }
    }

    /** Whether this table or one it replaced has an entry for {@code key}. */
    private boolean holds(String key) {
      return entries.containsKey(key) || predecessor != null && predecessor.holds(key);
    }

    /**
     * Removes the key from this table (or the tables it replaced) and returns its state in this
     * table's layout; null if none has it. Each step carries the state as of the instant of that
     * change, so that the old limits never judge the time that passed under the new ones.
     */
    private long[] take(String key) {
      Entry entry = entries.get(key);
      long[] state = entry != null ? capture(entry) : null;
      if (entry != null && entries.remove(key, entry)) {
        evictor.removed();
      }
      if (state == null && predecessor != null) {
        long[] old = predecessor.take(key);
        return old != null ? function.carry(predecessor.function, old, since) : null;
      }
      return state;
    }

    /** Kills the entry and returns the state it had; null if it was dead. */
    private long[] capture(Entry entry) {
      for (; ; ) {
        if (entry instanceof LongEntry e) {
          long state = e.state;
          if (state == TOMBSTONE) {
            return null;
          }
          if (e.compareAndSet(state, TOMBSTONE)) {
            return new long[] {state};
          }
        } else {
          SnapshotEntry e = (SnapshotEntry) entry;
          long[] state = e.state;
          if (state == DEAD_STATE) {
            return null;
          }
          if (e.compareAndSet(state, DEAD_STATE)) {
            return state;
          }
        }
      }
    }

    @Override
    Decision full() {
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

  /** Configures an {@link InMemoryStore}. */
  public static final class Builder {
    private NanoClock clock = NanoClock.system();
    private Clock wallClock = Clock.systemUTC();
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

    /**
     * The wall clock, read once when the store is built: calendar quotas place their periods at
     * that instant plus the time {@link #clock} measured since. The system's by default.
     */
    public Builder wallClock(Clock wallClock) {
      this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
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
