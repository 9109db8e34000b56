package io.github.limiter.memory;

import io.github.limiter.Decision;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.algorithm.LimitFunction;
import io.github.limiter.algorithm.LongStateFunction;
import io.github.limiter.algorithm.PolicyFunction;
import io.github.limiter.spi.PolicyStore;
import io.github.limiter.spi.RateLimitStore;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A lock-free, bounded store in this JVM's memory.
 *
 * <p>Each key's state is one atomic {@code long} (single-limit token bucket, leaky bucket and fixed
 * window: no allocation to decide) or one immutable {@code long[]} snapshot replaced by
 * compare-and-set (the other algorithms and multi-limit policies: one array per admission). No lock
 * is shared between keys, and there is no thread per key.
 *
 * <p><b>Bounded.</b> At most {@code maxKeys} keys are held. A key whose state is fresh again (a full
 * bucket, an empty window) is reclaimed by an incremental sweep run on inserts: forgetting it
 * changes no decision (for a limit with a non-default {@code initial}, the key starts again from
 * its initial tokens or level, which is stricter, never looser). When the bound is reached and nothing is reclaimable, {@link Overflow}
 * decides; see there for why eviction cannot be used to reset one's own limit.
 */
public final class InMemoryStore implements RateLimitStore {

  /** What to do with a new key when the store is full and no key is reclaimable. */
  public enum Overflow {
    /**
     * Evict, among a sample of keys, the one whose forgetting gives back the fewest permits (then
     * the one nearest to fresh). A client flooding new keys creates keys that have used one request
     * each, so they are the victims, while its own busy key, which used its limit, is kept: flooding
     * cannot reset one's own limit. The most an evicted key can gain is the few permits it used.
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
  /** What an attempt answers when another thread changed the state first; never a retry time. */
  private static final long LOST = -1;
  private static final long[] DEAD = new long[0];
  private static final int SWEEP_BATCH = 32;
  private static final int SWEEP_EVERY = 64;
  /** How often a new key for a full store tries to make room while another thread sweeps. */
  private static final int ROOM_ATTEMPTS = 64;
  /** How long a full store tells new keys to wait. */
  private static final long FULL_RETRY_NANOS = 1_000_000_000L;

  private final NanoClock clock;
  private final long epoch;
  private final int maxKeys;
  private final Overflow overflow;
  private final ConcurrentHashMap<Policy, Table> tables = new ConcurrentHashMap<>();
  private final AtomicInteger size = new AtomicInteger();
  /** Keys forgotten to make room under {@link Overflow#EVICT}; rare, so a plain atomic. */
  private final AtomicLong evictions = new AtomicLong();
  private final AtomicBoolean sweeping = new AtomicBoolean();
  private Iterator<Table> tableCursor;
  private Table sweptTable;
  private Iterator<Map.Entry<String, Object>> entryCursor;

  private InMemoryStore(Builder builder) {
    this.clock = builder.clock;
    this.epoch = clock.nanos();
    this.maxKeys = builder.maxKeys;
    this.overflow = builder.overflow;
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
    return size.get();
  }

  /** How many keys were evicted to make room since the store started. */
  public long evictions() {
    return evictions.get();
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
  public void refund(Policy policy, String key, long permits) {
    table(policy).refund(key, permits);
  }

  /** Adds a fresh entry for {@code key}, or returns the one a racing thread added; null if full. */
  private Object insert(Table table, String key, long now) {
    int held = size.get();
    if (held >= maxKeys) {
      if (!makeRoom()) {
        return null;
      }
    } else if (held % SWEEP_EVERY == 0) {
      sweep(false);
    }
    Object fresh = table.single != null
        ? new LongEntry(table.single.fresh(now))
        : new SnapshotEntry(table.function.fresh(now));
    Object raced = table.entries.putIfAbsent(key, fresh);
    if (raced != null) {
      return raced;
    }
    size.incrementAndGet();
    return fresh;
  }

  /**
   * Frees a slot in a full store by sweeping, and under {@link Overflow#EVICT} by evicting; false if
   * the store stays full. A thread never inserts into a full store without a slot seen free, so the
   * bound is overshot only by threads racing between that sight and their insert: at most one each.
   * While another thread sweeps, it waits a little for that sweep rather than overshoot; if the
   * sweep takes too long (its thread was preempted), the new key is told to come back.
   */
  private boolean makeRoom() {
    for (int attempt = 0; attempt < ROOM_ATTEMPTS; attempt++) {
      boolean swept = sweep(true);
      if (size.get() < maxKeys) {
        return true;
      }
      if (overflow == Overflow.REJECT_NEW_KEYS) {
        return false;
      }
      if (!swept) {
        Thread.yield();
      }
    }
    return false;
  }

  /** The key's entry, a fresh one if it has none; null if the store is full. */
  private Object liveEntry(Table table, String key) {
    Object entry = table.entries.get(key);
    return entry != null ? entry : insert(table, key, now());
  }

  /** Helps remove a dead entry, then finds the key's live one (null if the store is full). */
  private Object replaceDead(Table table, String key, Object dead) {
    if (table.entries.remove(key, dead)) {
      size.decrementAndGet();
    }
    return liveEntry(table, key);
  }

  /**
   * Scans a batch of keys, reclaiming the fresh ones; if the store is full and none was, evicts
   * (under {@link Overflow#EVICT}) the scanned key that forgetting would give back the fewest
   * permits, and of those the one nearest to fresh. One sweeper at a time; others skip rather than
   * wait, and get false.
   *
   * <p>The victim is chosen by permits regained, not by time to fresh: in a window every key's time
   * to fresh is the same, and a busy sliding-log key that stopped being admitted is nearer to fresh
   * than the one-request keys of a flood, which would then evict it and reset its limit.
   */
  private boolean sweep(boolean mustFree) {
    if (!sweeping.compareAndSet(false, true)) {
      return false;
    }
    try {
      int freed = 0;
      Table victimTable = null;
      String victimKey = null;
      Object victim = null;
      long victimRegained = Long.MAX_VALUE;
      long victimReset = Long.MAX_VALUE;
      for (int scanned = 0; scanned < SWEEP_BATCH; scanned++) {
        Map.Entry<String, Object> next = nextEntry();
        if (next == null) {
          break;
        }
        Table table = sweptTable;
        Object entry = next.getValue();
        long reset;
        long regained;
        boolean dead;
        // As in decide: the clock is read after the state it judges.
        if (entry instanceof LongEntry e) {
          long state = e.state;
          long now = now();
          reset = state == TOMBSTONE ? 0 : table.single.resetAfter(state, now);
          dead = state == TOMBSTONE || reset == 0 && e.compareAndSet(state, TOMBSTONE);
          regained = dead ? 0 : table.single.limit().burst() - table.single.remaining(state, now);
        } else {
          SnapshotEntry e = (SnapshotEntry) entry;
          long[] state = e.state;
          long now = now();
          reset = state == DEAD ? 0 : table.function.resetAfter(state, now);
          dead = state == DEAD || reset == 0 && e.compareAndSet(state, DEAD);
          regained = dead ? 0 : table.function.regained(state, now);
        }
        if (dead) {
          if (table.entries.remove(next.getKey(), entry)) {
            size.decrementAndGet();
            freed++;
          }
        } else if (reset > 0
            && (regained < victimRegained || regained == victimRegained && reset < victimReset)) {
          victimTable = table;
          victimKey = next.getKey();
          victim = entry;
          victimRegained = regained;
          victimReset = reset;
        }
      }
      // Only while still full: racing sweeps may have freed room meanwhile, and a small store's
      // batch can hold nothing but busy keys, which must not be evicted for no need.
      if (mustFree && freed == 0 && overflow == Overflow.EVICT && victim != null && size.get() >= maxKeys) {
        if (victimTable.killUnconditionally(victim) && victimTable.entries.remove(victimKey, victim)) {
          size.decrementAndGet();
          evictions.incrementAndGet();
        }
      }
      return true;
    } finally {
      sweeping.set(false);
    }
  }

  /** The next entry of a round-robin walk over every table; weakly consistent, never blocks. */
  private Map.Entry<String, Object> nextEntry() {
    for (int tries = 0; tries <= tables.size() + 1; tries++) {
      if (entryCursor != null && entryCursor.hasNext()) {
        return entryCursor.next();
      }
      if (tableCursor == null || !tableCursor.hasNext()) {
        tableCursor = tables.values().iterator();
        if (!tableCursor.hasNext()) {
          return null;
        }
      }
      sweptTable = tableCursor.next();
      entryCursor = sweptTable.entries.entrySet().iterator();
    }
    return null;
  }

  /**
   * The keys of one policy, and its decisions.
   *
   * <p>Each decision reads the clock after the state it judges, never before: a thread held
   * between the two readings would judge a state that another thread moved into a later window by
   * an earlier time, and the sliding counter would take that window's counts for zero and
   * overwrite them.
   */
  private final class Table implements PolicyStore {
    final Policy policy;
    final PolicyFunction function;
    final LongStateFunction single;
    final ConcurrentHashMap<String, Object> entries = new ConcurrentHashMap<>();

    Table(Policy policy) {
      this.policy = policy;
      this.function = policy.function();
      this.single = function.single();
    }

    @Override
    public Policy policy() {
      return policy;
    }

    // decide and tryAcquire try the common case once (a live one-long entry, one attempt) in a body
    // small enough to inline into the caller; a new key, a dead entry, a lost race or a snapshot
    // policy takes the full loop, which makes the same attempts.

    @Override
    public Decision decide(String key, long permits) {
      if (single != null && entries.get(key) instanceof LongEntry entry) {
        long state = entry.state;
        Decision decided = state == TOMBSTONE ? null : attempt(entry, state, permits);
        if (decided != null) {
          return decided;
        }
      }
      return single != null ? decideLong(key, permits) : decideSnapshot(key, permits);
    }

    @Override
    public long tryAcquire(String key, long permits) {
      if (single != null && entries.get(key) instanceof LongEntry entry) {
        long state = entry.state;
        long retry = state == TOMBSTONE ? LOST : tryAttempt(entry, state, permits);
        if (retry != LOST) {
          return retry;
        }
      }
      return single != null ? tryAcquireLong(key, permits) : primitive(decideSnapshot(key, permits));
    }

    /** One compare-and-set on a live state: the decision, or null if another thread moved it first. */
    private Decision attempt(LongEntry entry, long state, long permits) {
      long now = now();
      long retry = single.retryAfter(state, now, permits);
      if (retry != 0) {
        return function.rejected(single, state, now, retry);
      }
      long next = single.admit(state, now, permits);
      return entry.compareAndSet(state, next) ? function.admitted(single, next, now) : null;
    }

    /** As {@link #attempt}, answering the retry (0: admitted), or {@link #LOST}. */
    private long tryAttempt(LongEntry entry, long state, long permits) {
      long now = now();
      long retry = single.retryAfter(state, now, permits);
      return retry != 0 || entry.compareAndSet(state, single.admit(state, now, permits)) ? retry : LOST;
    }

    private Decision decideLong(String key, long permits) {
      LongEntry entry = (LongEntry) liveEntry(this, key);
      for (;;) {
        if (entry == null) {
          return full();
        }
        long state = entry.state;
        if (state == TOMBSTONE) {
          entry = (LongEntry) replaceDead(this, key, entry);
          continue;
        }
        Decision decided = attempt(entry, state, permits);
        if (decided != null) {
          return decided;
        }
      }
    }

    private long tryAcquireLong(String key, long permits) {
      LongEntry entry = (LongEntry) liveEntry(this, key);
      for (;;) {
        if (entry == null) {
          return FULL_RETRY_NANOS;
        }
        long state = entry.state;
        if (state == TOMBSTONE) {
          entry = (LongEntry) replaceDead(this, key, entry);
          continue;
        }
        long retry = tryAttempt(entry, state, permits);
        if (retry != LOST) {
          return retry;
        }
      }
    }

    private static long primitive(Decision decision) {
      return decision.isAllowed() ? 0 : Math.max(1, decision.retryAfterNanos());
    }

    private Decision decideSnapshot(String key, long permits) {
      SnapshotEntry entry = (SnapshotEntry) liveEntry(this, key);
      for (;;) {
        if (entry == null) {
          return full();
        }
        long[] state = entry.state;
        if (state == DEAD) {
          entry = (SnapshotEntry) replaceDead(this, key, entry);
          continue;
        }
        long now = now();
        long retry = function.retryAfter(state, now, permits);
        if (retry != 0) {
          return function.reject(state, now, permits, retry);
        }
        long[] next = state.clone();
        Decision decision = function.admit(next, now, permits);
        if (entry.compareAndSet(state, next)) {
          return decision;
        }
      }
    }

    @Override
    public void refund(String key, long permits) {
      Object entry = entries.get(key);
      long now = now();
      if (entry instanceof LongEntry e) {
        for (long state = e.state; state != TOMBSTONE; state = e.state) {
          if (e.compareAndSet(state, single.refund(state, now, permits))) {
            return;
          }
        }
      } else if (entry instanceof SnapshotEntry e) {
        for (long[] state = e.state; state != DEAD; state = e.state) {
          long[] next = state.clone();
          function.refund(next, now, permits);
          if (e.compareAndSet(state, next)) {
            return;
          }
        }
      }
    }

    private Decision full() {
      LimitFunction first = PolicyFunction.function(policy.algorithm(), policy.limits().get(0));
      return Decision.unavailable(policy.name(), first.limit(), FULL_RETRY_NANOS);
    }

    boolean killUnconditionally(Object entry) {
      if (entry instanceof LongEntry e) {
        for (long state = e.state; ; state = e.state) {
          if (state == TOMBSTONE || e.compareAndSet(state, TOMBSTONE)) {
            return true;
          }
        }
      }
      SnapshotEntry e = (SnapshotEntry) entry;
      for (long[] state = e.state; ; state = e.state) {
        if (state == DEAD || e.compareAndSet(state, DEAD)) {
          return true;
        }
      }
    }
  }

  /** A key whose state is one long. */
  static final class LongEntry {
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
  static final class SnapshotEntry {
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

    /** The clock; the JVM's monotonic clock by default. Tests and the replay tool drive their own. */
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
