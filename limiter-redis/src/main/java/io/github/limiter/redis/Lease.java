package io.github.limiter.redis;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One client key's lease on this node: the slice it may spend, as one {@code long} changed only by
 * compare-and-set (the in-memory store's idea), so that spending takes no lock and no call to
 * Redis. The high 32 bits are the tick (about a millisecond, {@link #TICK_SHIFT}) from which the
 * slice may no longer be spent, the low 32 bits the permits left in it.
 *
 * <p>A permit is spent by the compare-and-set that takes it, and only if the clock read after that
 * compare-and-set is still before the slice's end: a thread that stalls between reading the clock
 * and taking the permit cannot spend it late. The local end is the end Redis recorded, less a
 * margin, measured from when the grant was sent (which is before Redis granted it), so the node
 * always stops spending before Redis stops counting the slice as held.
 *
 * <p>At most one call to Redis is in flight per lease ({@link #fetching}): a grant, or the release
 * that retires the lease. Threads that find the slice empty wait for that call rather than start
 * their own.
 */
final class Lease {

  /**
   * Nanoseconds per tick: 2^20, about 1.05 ms. 32 bits of ticks span 52 days, compared mod 2^32.
   */
  static final int TICK_SHIFT = 20;

  private static final long TOKENS = 0xffff_ffffL;

  /**
   * What the last grant said, for sizing the next one and for the decisions' headers; replaced
   * whole after each grant.
   *
   * @param installedAt when the last grant was installed (clock nanos); 0 before the first
   * @param installedTokens the slice's permits right after that
   * @param lowMark fewer permits left than this start the next fetch in the background
   * @param renewTick from this tick, the next fetch starts in the background even with permits left
   * @param bind the limit with the least left in Redis (0-based)
   * @param left what Redis had left under that limit after the grant
   * @param resetNanos when that limit would be fresh again, from {@code installedAt}
   * @param deniedUntil until when Redis had nothing for this node (clock nanos), if {@code denied}
   * @param denied whether the last grant fell short of the request that asked
   */
  record Info(
      long installedAt,
      long installedTokens,
      long lowMark,
      int renewTick,
      int bind,
      long left,
      long resetNanos,
      long deniedUntil,
      boolean denied) {

    static final Info NONE = new Info(0, 0, 1, 0, 0, 0, 0, 0, false);
  }

  final Leases.Leased policy;
  final String key;
  final List<String> redisKeys;
  final AtomicLong state = new AtomicLong();
  final AtomicReference<CompletableFuture<Void>> fetching = new AtomicReference<>();
  volatile Info info = Info.NONE;

  /** Set by a decision, cleared by each sweep: a lease no decision used between sweeps retires. */
  volatile boolean used = true;

  /** A global policy's: what the region's pool held after this node's last call to it. */
  volatile long poolSeen;

  /** Whether Redis may hold a record of this lease (a grant was sent). */
  volatile boolean recorded;

  /**
   * Set once, when the lease ends: its slice is empty for good, and callers take the key's next
   * lease (after the fetch slot's future completes).
   */
  volatile boolean retired;

  Lease(Leases.Leased policy, String key, List<String> redisKeys) {
    this.policy = policy;
    this.key = key;
    this.redisKeys = redisKeys;
  }

  static long tokens(long state) {
    return state & TOKENS;
  }

  static int endTick(long state) {
    return (int) (state >>> 32);
  }

  static long state(int endTick, long tokens) {
    return ((long) endTick << 32) | tokens;
  }

  /** Whether a slice ending at {@code endTick} may still be spent at tick {@code now}. */
  static boolean live(int endTick, int now) {
    return endTick - now > 0;
  }

  /** The permits this lease can spend at tick {@code now}. */
  long spendable(int now) {
    long s = state.get();
    return live(endTick(s), now) ? tokens(s) : 0;
  }

  /**
   * Spends {@code permits} from the slice if it holds them: the admission, or null if it cannot
   * (empty, too small, or ended).
   */
  Decision trySpend(long permits) {
    Leases leases = policy.leases();
    if (!used) {
      used = true;
    }
    for (; ; ) {
      long s = state.get();
      long tokens = tokens(s);
      int end = endTick(s);
      if (tokens < permits || !live(end, leases.tick(leases.clock.nanos()))) {
        return null;
      }
      if (!state.compareAndSet(s, s - permits)) {
        continue;
      }
      long now = leases.clock.nanos();
      int tick = leases.tick(now);
      if (!live(end, tick)) {
        // Taken after the slice ended: lost, not spent.
        continue;
      }
      long rest = tokens - permits;
      Info i = info;
      if ((rest < i.lowMark || tick - i.renewTick >= 0)
          && fetching.get() == null
          && !(i.denied && i.deniedUntil - now > 0)) {
        leases.fetchInBackground(this);
      }
      return allowed(i, rest, now);
    }
  }

  private Decision allowed(Info i, long rest, long now) {
    Limit limit = policy.limit(i.bind);
    long reset = Math.max(0, i.resetNanos - (now - i.installedAt));
    long remaining = rest + Math.max(0, i.left);
    return Decision.allowed(policy.name(), limit, remaining, reset, 0);
  }

  /** A rejection by the last grant's word: Redis had nothing for this node until then. */
  Decision denied(long now) {
    Info i = info;
    if (!i.denied || i.deniedUntil - now <= 0) {
      return null;
    }
    long reset = Math.max(0, i.resetNanos - (now - i.installedAt));
    return Decision.limited(policy.name(), policy.limit(i.bind), reset, i.deniedUntil - now);
  }

  /**
   * Installs a grant sent at {@code sentAt}: the slice's permits left, if it has not ended, plus
   * {@code granted}, spendable until Redis's end less the margin.
   */
  void install(long sentAt, long granted, long spendNanos, Info next) {
    Leases leases = policy.leases();
    long margin = Leases.MARGIN_NANOS + spendNanos / 1000;
    int end = leases.tick(sentAt + spendNanos - margin);
    int now = leases.tick(leases.clock.nanos());
    for (; ; ) {
      long s = state.get();
      long kept = live(endTick(s), now) ? tokens(s) : 0;
      long tokens = Math.min(TOKENS >>> 1, kept + granted);
      if (state.compareAndSet(s, state(end, tokens))) {
        info =
            new Info(
                next.installedAt,
                tokens,
                next.lowMark,
                next.renewTick,
                next.bind,
                next.left,
                next.resetNanos,
                next.deniedUntil,
                next.denied);
        return;
      }
    }
  }

  /** Empties the slice: what it held, if it had not ended. */
  long drain(int now) {
    for (; ; ) {
      long s = state.get();
      if (state.compareAndSet(s, state(endTick(s), 0))) {
        return live(endTick(s), now) ? tokens(s) : 0;
      }
    }
  }
}
