package io.github.limiter.memory;

import io.github.limiter.Algorithm;
import io.github.limiter.memory.InMemoryStore.Overflow;
import io.github.limiter.memory.InMemoryStore.Table;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps an {@link InMemoryStore} within {@code maxKeys}: counts its keys, reclaims the fresh ones
 * in an incremental sweep run on inserts, and when the store is full makes room for a new key.
 *
 * <p>Under {@link Overflow#EVICT} a full store always makes room: it evicts from the policy that
 * holds the most keys, the sampled key that would regain the least share of its capacity (then the
 * one nearest to fresh). A flood of new keys soon makes its own policy the largest, so it evicts
 * its own keys and never another policy's exhausted key; and within a policy, keys that used a
 * request or two are the victims, not a key that used its limit. A share, not a count of permits:
 * six requests are more than a login policy's whole capacity of five, but a sliver of an API
 * policy's thousand.
 */
final class Evictor {

  private static final int SWEEP_BATCH = 32;
  private static final int SWEEP_EVERY = 64;

  /** How often a new key for a full store tries to make room. */
  private static final int ROOM_ATTEMPTS = 64;

  private final int maxKeys;
  private final Overflow overflow;
  private final Collection<Table> tables;
  private final AtomicInteger size = new AtomicInteger();

  /** Keys forgotten to make room under {@link Overflow#EVICT}; rare, so a plain atomic. */
  private final AtomicLong evictions = new AtomicLong();

  /** One incremental sweep at a time walks the shared cursor; others skip, or use their own. */
  private final AtomicBoolean sweeping = new AtomicBoolean();

  private final Cursor shared = new Cursor();

  Evictor(int maxKeys, Overflow overflow, Collection<Table> tables) {
    this.maxKeys = maxKeys;
    this.overflow = overflow;
    this.tables = tables;
  }

  int size() {
    return size.get();
  }

  long evictions() {
    return evictions.get();
  }

  void added() {
    size.incrementAndGet();
  }

  void removed() {
    size.decrementAndGet();
  }

  /**
   * Whether a new key may be inserted now: sweeps now and then, and in a full store makes room.
   * Under {@link Overflow#EVICT} always true: a thread that finds the store full frees a slot
   * itself before it inserts, so the bound is overshot only by threads racing between a slot seen
   * free and their insert, at most one each. Under {@link Overflow#REJECT_NEW_KEYS} false while the
   * store is full and nothing in it is fresh.
   */
  boolean roomForNewKey() {
    int held = size.get();
    if (held < maxKeys) {
      if (held % SWEEP_EVERY == 0) {
        sweep();
      }
      return true;
    }
    Cursor own = null;
    for (int attempt = 0; attempt < ROOM_ATTEMPTS; attempt++) {
      if (size.get() < maxKeys) {
        return true;
      }
      if (sweeping.compareAndSet(false, true)) {
        try {
          if (makeRoom(shared)) {
            return true;
          }
        } finally {
          sweeping.set(false);
        }
      } else if (overflow == Overflow.EVICT) {
        // Another thread sweeps, and may be preempted mid-sweep: do not wait for it, make room
        // with a cursor of one's own.
        own = own != null ? own : new Cursor();
        if (makeRoom(own)) {
          return true;
        }
      } else {
        Thread.yield();
      }
    }
    // Under EVICT only after 64 slots freed by this thread were taken by racing ones: go ahead.
    return overflow == Overflow.EVICT || size.get() < maxKeys;
  }

  /** A sweep on the shared cursor that need not free anything; skipped if another one runs. */
  private void sweep() {
    if (sweeping.compareAndSet(false, true)) {
      try {
        reclaim(shared);
      } finally {
        sweeping.set(false);
      }
    }
  }

  /**
   * Frees a slot for a new key in a full store: reclaims the fresh keys of a batch, and if none was
   * reclaimed evicts under {@link Overflow#EVICT}, but only while the store is still full: racing
   * sweeps may have freed room meanwhile, and a small store's batch can hold nothing but busy keys,
   * which must not be evicted for no need. True if this thread freed a slot.
   */
  private boolean makeRoom(Cursor cursor) {
    if (reclaim(cursor) > 0) {
      return true;
    }
    return overflow == Overflow.EVICT && size.get() >= maxKeys && evict(cursor);
  }

  /** Reclaims the fresh keys among a batch, walking round-robin over every policy; how many. */
  private int reclaim(Cursor cursor) {
    int freed = 0;
    for (int scanned = 0; scanned < SWEEP_BATCH; scanned++) {
      Map.Entry<String, Entry> next = cursor.next();
      if (next == null) {
        break;
      }
      if (cursor.table.reclaimIfFresh(next.getValue()) && remove(cursor.table, next)) {
        freed++;
      }
    }
    return freed;
  }

  /**
   * Evicts, in the policy that holds the most keys, the sampled key that forgetting would give back
   * the least share of its capacity, then the one nearest to fresh; true if this thread freed a
   * slot (removed a key).
   *
   * <p>Not by time to fresh alone: in a window every key's time to fresh is the same, and a busy
   * sliding-log key that stopped being admitted is nearer to fresh than the one-request keys of a
   * flood, which would then evict it and reset its limit.
   */
  private boolean evict(Cursor cursor) {
    Table largest = null;
    for (Table table : tables) {
      // A concurrency key that is not fresh holds permits of requests still running: forgetting
      // it would admit more than its limit. Such keys are bounded by the requests in flight.
      if (table.policy.algorithm() == Algorithm.CONCURRENCY) {
        continue;
      }
      if (largest == null || table.entries.size() > largest.entries.size()) {
        largest = table;
      }
    }
    if (largest == null) {
      return false;
    }
    if (cursor.evicting != largest || !cursor.evictable.hasNext()) {
      cursor.evicting = largest;
      cursor.evictable = largest.entries.entrySet().iterator();
    }
    Map.Entry<String, Entry> victim = null;
    double victimShare = Double.MAX_VALUE;
    long victimReset = Long.MAX_VALUE;
    for (int scanned = 0; scanned < SWEEP_BATCH && cursor.evictable.hasNext(); scanned++) {
      Map.Entry<String, Entry> next = cursor.evictable.next();
      long reset = largest.resetAfter(next.getValue());
      if (reset == 0) {
        // Fresh or dead (evicted by a racing thread): reclaiming it is enough.
        if (largest.reclaimIfFresh(next.getValue()) && remove(largest, next)) {
          return true;
        }
        continue;
      }
      double share = largest.usedShare(next.getValue());
      if (share < victimShare || share == victimShare && reset < victimReset) {
        victim = next;
        victimShare = share;
        victimReset = reset;
      }
    }
    // The slot is this thread's only if it also removes the key: a racing sweep may reclaim the
    // dead key first, and then that slot is the racer's.
    if (victim != null && largest.kill(victim.getValue()) && remove(largest, victim)) {
      evictions.incrementAndGet();
      return true;
    }
    return false;
  }

  private boolean remove(Table table, Map.Entry<String, Entry> dead) {
    if (table.entries.remove(dead.getKey(), dead.getValue())) {
      size.decrementAndGet();
      return true;
    }
    return false;
  }

  /** A weakly consistent walk over every policy's keys; never blocks. One thread at a time. */
  private final class Cursor {
    private Iterator<Table> tableCursor;
    private Table table;
    private Iterator<Map.Entry<String, Entry>> entryCursor;
    private Table evicting;
    private Iterator<Map.Entry<String, Entry>> evictable;

    /** The next key of a round-robin walk over every table; null if there is none. */
    Map.Entry<String, Entry> next() {
      for (int tries = 0; tries <= tables.size() + 1; tries++) {
        if (entryCursor != null && entryCursor.hasNext()) {
          return entryCursor.next();
        }
        if (tableCursor == null || !tableCursor.hasNext()) {
          tableCursor = tables.iterator();
          if (!tableCursor.hasNext()) {
            return null;
          }
        }
        table = tableCursor.next();
        entryCursor = table.entries.entrySet().iterator();
      }
      return null;
    }
  }
}
