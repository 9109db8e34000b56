package io.github.limiter.redis;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.log.LogText;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;

/**
 * Lease mode, for the policies configured with it: a node reserves a slice of a key's limits from
 * Redis by one atomic script ({@code lease.lua}: refill, grant min(wanted, available, cap, fair
 * share), subtract), spends it locally ({@link Lease}), fetches the next slice in the background
 * when fewer than the low-water mark are left, and gives back what is left ({@code release.lua})
 * when the lease goes unused for a refresh interval and when the store closes.
 *
 * <p>Slices are charged before they are spent, and a slice is spent only while Redis counts it as
 * held, so across all nodes a leased policy never admits more than exact mode would. It may admit
 * less: at most what the nodes hold. A slice is about the node's own rate × the refresh interval,
 * capped by the policy's max slice and by capacity ÷ active nodes; near exhaustion each node gets
 * at most its share of what is left.
 *
 * <p>When a fetch fails, or the breaker is open, a decision that finds its slice empty falls back
 * to the policy's failure mode, as an exact decision does.
 */
final class Leases implements AutoCloseable {

  /**
   * How much sooner than Redis a node stops spending a slice, besides 0.1% of its span: for clock
   * rate differences between the node and Redis and for rounding to ticks.
   */
  static final long MARGIN_NANOS = 1_000_000;

  private static final Object EXACT = new Object();

  /** A decision to make again on the key's current lease: the one tried had retired. */
  private static final Decision RETRY =
      Decision.allowedUnverified("retry", Limit.of(1, Duration.ofSeconds(1)));

  /** What lease mode needs of the store it serves. */
  interface Host {

    /** Script calls, guarded by the breakers of the store. */
    GuardedCalls calls();

    /** The scripts' ARGV[1]: '' for server time, else caller time in microseconds. */
    String now();

    /** The scripts' ARGV[3]: the least TTL in ms (0 under server time). */
    String ttlFloor();

    /** The policy's failure mode decides, as for an exact decision. */
    Decision fallback(CircuitBreaker breaker, Policy policy, String key, long permits);
  }

  private final Host host;
  private final GuardedCalls calls;
  private final KeyScheme keyScheme;
  final NanoClock clock;
  final String node;
  private final long origin;
  private final Map<String, PolicyConfig.LeaseMode> settings;
  private final ExecutorService fetcher;
  private final ScheduledExecutorService sweeper;
  private final ConcurrentHashMap<Policy, Object> policies = new ConcurrentHashMap<>();

  /** The global policies' pools in this region, or null: docs/multi-region.md. */
  final RegionPools regions;

  private volatile boolean closed;

  /**
   * @param background whether grants below the low-water mark and sweeps run on threads of their
   *     own; without, a grant runs on the deciding thread and sweeps only when {@link #sweep} is
   *     called (for tests)
   */
  Leases(
      Host host,
      KeyScheme keys,
      NanoClock clock,
      Map<String, PolicyConfig.LeaseMode> settings,
      boolean background) {
    this(host, keys, clock, settings, background, null);
  }

  /**
   * @param regions the global policies' pools in this region: their nodes lease from the pool
   *     rather than from the policy's state
   */
  Leases(
      Host host,
      KeyScheme keys,
      NanoClock clock,
      Map<String, PolicyConfig.LeaseMode> settings,
      boolean background,
      RegionPools regions) {
    this.host = host;
    this.regions = regions;
    this.calls = host.calls();
    this.keyScheme = keys;
    this.clock = clock;
    this.origin = clock.nanos();
    this.settings = Map.copyOf(settings);
    byte[] id = new byte[8];
    new SecureRandom().nextBytes(id);
    this.node = HexFormat.of().formatHex(id);
    if (background) {
      AtomicInteger count = new AtomicInteger();
      this.fetcher =
          Executors.newFixedThreadPool(
              2,
              runnable -> {
                Thread thread =
                    new Thread(runnable, "limiter-redis-lease-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
              });
      this.sweeper =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "limiter-redis-lease-sweep");
                thread.setDaemon(true);
                return thread;
              });
    } else {
      this.fetcher = null;
      this.sweeper = null;
    }
  }

  Host host() {
    return host;
  }

  /** The tick of a clock reading, as {@link Lease} keeps slice ends. */
  int tick(long nanos) {
    return (int) ((nanos - origin) >> Lease.TICK_SHIFT);
  }

  /** The decision of a leased policy; null if {@code policy} is decided exactly. */
  Decision decide(Policy policy, String key, long permits) {
    Leased leased = leased(policy);
    return leased == null ? null : leased.decide(key, permits);
  }

  /** Whether {@code policy} is in lease mode here. */
  boolean isLeased(Policy policy) {
    return leased(policy) != null;
  }

  private Leased leased(Policy policy) {
    Object leased = policies.get(policy);
    if (leased == null) {
      leased = policies.computeIfAbsent(policy, this::create);
    }
    return leased == EXACT ? null : (Leased) leased;
  }

  private Object create(Policy policy) {
    PolicyConfig.LeaseMode lease = settings.get(policy.name());
    if (lease == null || !lease.enabled()) {
      return EXACT;
    }
    if (!Scripts.leases(policy.algorithm())) {
      CircuitBreaker.LOG.logp(
          Level.WARNING,
          RedisStore.class.getName(),
          "decide",
          "Lease mode is proven for token-bucket and fixed-window only; policy "
              + LogText.quote(policy.name())
              + " ("
              + policy.algorithm()
              + ") is decided exactly");
      return EXACT;
    }
    Leased leased = new Leased(policy, lease);
    if (leased.tally != null) {
      leased.tally.leases = leased;
    }
    if (sweeper != null && !closed) {
      // Often enough that an idle lease goes back (within two sweeps) well before it ends.
      long every = Math.min(lease.refresh().toNanos(), lease.ttl().toNanos() / 4);
      try {
        sweeper.scheduleWithFixedDelay(leased::sweepQuietly, every, every, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        // Closing: nothing left to sweep for.
      }
    }
    return leased;
  }

  /** Retires every lease no decision used since the last sweep, giving back what it held. */
  void sweep() {
    for (Object leased : policies.values()) {
      if (leased instanceof Leased l) {
        l.sweep();
      }
    }
  }

  /** Starts a grant on a fetcher thread, unless one is in flight or the store is closing. */
  void fetchInBackground(Lease lease) {
    if (closed) {
      return;
    }
    CompletableFuture<Void> mine = new CompletableFuture<>();
    if (!lease.fetching.compareAndSet(null, mine)) {
      return;
    }
    Runnable grant = () -> lease.policy.fetch(lease, 1, mine);
    if (fetcher == null) {
      grant.run();
      return;
    }
    try {
      fetcher.execute(grant);
    } catch (RejectedExecutionException e) {
      lease.fetching.compareAndSet(mine, null);
      mine.complete(null);
    }
  }

  /**
   * Gives back every slice this node holds, and ends its leases; then the region's pools that no
   * other node leases from, to the global budget; before the transport closes.
   */
  @Override
  public void close() {
    closed = true;
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
    if (regions != null) {
      regions.stopRefills();
    }
    if (fetcher != null) {
      fetcher.shutdown();
      try {
        fetcher.awaitTermination(calls.budgetNanos() * 2, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (Object leased : policies.values()) {
      if (leased instanceof Leased l) {
        for (Lease lease : l.keys.values()) {
          l.retireWhenIdle(lease);
          if (l.global && lease.recorded) {
            regions.giveBack(l, lease);
          }
        }
      }
    }
    if (regions != null) {
      regions.close();
    }
  }

  /** One leased policy: its scripts, its settings, and its keys' leases on this node. */
  final class Leased {

    final Policy policy;
    final CompiledPolicy compiled;
    final PolicyConfig.LeaseMode settings;

    /** Whether the policy is global: its slices come from the region's pool. */
    final boolean global;

    /** A global policy's figures in its region; null if it is not global. */
    final RegionPools.Tally tally;

    private final Scripts.Script grant;
    private final Scripts.Script release;
    private final long capacity;
    private final long cap;
    private final long spanMicros;
    private final long refreshNanos;
    final ConcurrentHashMap<String, Lease> keys = new ConcurrentHashMap<>();

    Leased(Policy policy, PolicyConfig.LeaseMode settings) {
      this.policy = policy;
      this.compiled = new CompiledPolicy(policy, keyScheme);
      this.settings = settings;
      this.global = regions != null && regions.isGlobal(policy.name());
      this.tally = global ? regions.tally(policy.name()) : null;
      this.grant = global ? RegionPools.LEASE : Scripts.lease(policy.algorithm());
      this.release = global ? RegionPools.RELEASE : Scripts.release(policy.algorithm());
      // Limit#burst is the window's count for the window algorithms.
      this.capacity = policy.limits().stream().mapToLong(Limit::burst).min().orElseThrow();
      this.cap = Math.min(settings.maxSlice(), capacity);
      this.spanMicros = settings.ttl().toNanos() / 1000;
      this.refreshNanos = settings.refresh().toNanos();
    }

    Leases leases() {
      return Leases.this;
    }

    /** A lease's keys: the policy's state and its leases, or a global policy's regional pool. */
    private List<String> redisKeys(String key) {
      List<String> keys = compiled.leaseKeys(key);
      return global ? RegionPools.regionKeys(keys) : keys;
    }

    String name() {
      return policy.name();
    }

    Limit limit(int index) {
      return policy.limits().get(index);
    }

    Decision decide(String key, long permits) {
      if (permits > capacity) {
        Limit smallest =
            policy.limits().stream().filter(l -> l.burst() == capacity).findFirst().orElseThrow();
        return Decision.exceedsCapacity(policy.name(), smallest, 0, 0);
      }
      for (; ; ) {
        Lease lease = keys.get(key);
        if (lease == null) {
          lease = keys.computeIfAbsent(key, k -> new Lease(this, k, redisKeys(k)));
        }
        Decision decision = lease.trySpend(permits);
        if (decision == null) {
          decision = slow(lease, permits);
        }
        if (decision != RETRY) {
          return decision;
        }
      }
    }

    /** The slice cannot pay: Redis's last word if it had nothing, else a grant, then the slice. */
    private Decision slow(Lease lease, long permits) {
      Decision denied = lease.denied(clock.nanos());
      if (denied != null) {
        return denied;
      }
      long deadline = calls.clock().nanos() + calls.budgetNanos();
      for (int attempt = 0; attempt < 3; attempt++) {
        CompletableFuture<Void> call = lease.fetching.get();
        if (call == null) {
          CompletableFuture<Void> mine = new CompletableFuture<>();
          if (!lease.fetching.compareAndSet(null, mine)) {
            attempt--;
            continue;
          }
          fetch(lease, permits, mine);
          call = mine;
        }
        try {
          call.get(Math.max(0, deadline - calls.clock().nanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return fallback(lease, permits);
        } catch (ExecutionException | TimeoutException e) {
          return lease.retired ? RETRY : fallback(lease, permits);
        }
        if (lease.retired) {
          return RETRY;
        }
        Decision decision = lease.trySpend(permits);
        if (decision == null) {
          decision = lease.denied(clock.nanos());
        }
        if (decision != null) {
          return decision;
        }
      }
      // Each grant was taken by this node's other callers before this one: over the limit for now.
      Lease.Info info = lease.info;
      Limit limit = limit(info.bind());
      return Decision.limited(
          policy.name(),
          limit,
          Math.max(0, info.resetNanos() - (clock.nanos() - info.installedAt())),
          limit.intervalNanos());
    }

    private Decision fallback(Lease lease, long permits) {
      return host.fallback(calls.breaker(lease.redisKeys), policy, lease.key, permits);
    }

    /**
     * Asks Redis for a slice that covers {@code permits} (less what the lease holds) and the node's
     * rate; installs it and completes {@code done}, or completes it with the failure.
     */
    void fetch(Lease lease, long permits, CompletableFuture<Void> done) {
      try {
        CircuitBreaker breaker = calls.breaker(lease.redisKeys);
        if (closed || !breaker.tryAcquire()) {
          throw new IllegalStateException(closed ? "store closed" : "circuit breaker open");
        }
        long sent = clock.nanos();
        long unspent = lease.spendable(tick(sent));
        long need = Math.max(1, permits - unspent);
        long wanted = wanted(lease.info, need, unspent, sent);
        List<String> args = new ArrayList<>(compiled.args(host.now(), need, host.ttlFloor()));
        args.add(node);
        args.add(Long.toString(wanted));
        args.add(Long.toString(unspent));
        args.add(Long.toString(spanMicros));
        args.add(Long.toString(cap));
        args.add(Long.toString(capacity));
        lease.recorded = true;
        install(lease, calls.eval(breaker, grant, lease.redisKeys, args), sent, need);
        lease.fetching.compareAndSet(done, null);
        done.complete(null);
      } catch (Throwable e) {
        lease.fetching.compareAndSet(done, null);
        done.completeExceptionally(e);
      }
    }

    /** About rate × refresh, measured since the last grant; at least {@code need}, at most cap. */
    private long wanted(Lease.Info info, long need, long unspent, long now) {
      double wanted;
      if (info == Lease.Info.NONE) {
        wanted = need;
      } else {
        long spent = Math.max(0, info.installedTokens() - unspent);
        long elapsed = now - info.installedAt();
        wanted = elapsed <= 0 ? cap : (double) spent * refreshNanos / elapsed;
      }
      long room = (Integer.MAX_VALUE - unspent);
      return Math.max(need, Math.min(Math.min(cap, room), (long) Math.ceil(wanted)));
    }

    private void install(Lease lease, Object reply, long sent, long need) {
      if (!(reply instanceof List<?> values) || values.size() != 7) {
        throw new IllegalStateException("unexpected reply from " + grant.name() + ": " + reply);
      }
      long granted = number(values.get(0));
      long spendNanos = number(values.get(1)) * 1000;
      long retryNanos = number(values.get(2)) * 1000;
      long left = number(values.get(3));
      int bind = (int) number(values.get(4)) - 1;
      long resetNanos = number(values.get(5)) * 1000;
      long received = clock.nanos();
      double lowWater = settings.lowWater();
      long lowMark = lowWater == 0 ? 0 : Math.max(1, (long) Math.ceil(lowWater * granted));
      long margin = MARGIN_NANOS + spendNanos / 1000;
      int end = tick(sent + spendNanos - margin);
      // A bucket's slice is renewed a refresh interval before it ends; a window's ends with it.
      int renew =
          spendNanos / 1000 < spanMicros ? end : tick(sent + spendNanos - margin - refreshNanos);
      boolean denied = granted < need;
      lease.install(
          sent,
          granted,
          spendNanos,
          new Lease.Info(
              received,
              0,
              lowMark,
              renew,
              bind,
              left,
              resetNanos,
              received + retryNanos,
              denied && retryNanos > 0));
      if (global) {
        tally.leased.addAndGet(granted);
        lease.poolSeen = left;
        if (number(values.get(6)) == 1) {
          regions.refill(this, lease, denied);
        }
      }
    }

    private static long number(Object value) {
      if (value instanceof Long n) {
        return n;
      }
      throw new IllegalStateException("expected an integer in the lease reply, was " + value);
    }

    void sweepQuietly() {
      try {
        sweep();
      } catch (RuntimeException e) {
        CircuitBreaker.LOG.log(Level.FINE, "lease sweep failed", e);
      }
    }

    /** Retires the leases no decision used since the last sweep. */
    void sweep() {
      for (Lease lease : keys.values()) {
        if (lease.used) {
          lease.used = false;
        } else {
          retire(lease);
        }
      }
    }

    /** At close: waits for a grant in flight, then retires. */
    void retireWhenIdle(Lease lease) {
      for (int i = 0; i < 3 && !lease.retired; i++) {
        CompletableFuture<Void> call = lease.fetching.get();
        if (call != null && !lease.retired) {
          try {
            call.get(calls.budgetNanos(), TimeUnit.NANOSECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          } catch (ExecutionException | TimeoutException e) {
            // Failed or slow: retire all the same.
          }
        }
        retire(lease);
      }
    }

    /**
     * Ends {@code lease}: empties its slice, gives back what it held (and ends its record) in
     * Redis, then forgets it. Callers that find it retired wait for that, then take a new lease, so
     * that a key has one lease at a time on this node, and its record in Redis is that lease's.
     */
    private void retire(Lease lease) {
      CompletableFuture<Void> retiring = new CompletableFuture<>();
      if (!lease.fetching.compareAndSet(null, retiring)) {
        return; // a grant in flight: used after all
      }
      lease.retired = true;
      try {
        long unspent = lease.drain(tick(clock.nanos()));
        if (lease.recorded) {
          giveBack(lease, unspent);
        }
      } finally {
        keys.remove(lease.key, lease);
        retiring.complete(null);
      }
    }

    private void giveBack(Lease lease, long unspent) {
      CircuitBreaker breaker = calls.breaker(lease.redisKeys);
      if (breaker.state() != CircuitBreaker.State.CLOSED) {
        return; // the record ends at its TTL
      }
      List<String> args = new ArrayList<>(compiled.args(host.now(), unspent, host.ttlFloor()));
      args.add(node);
      try {
        Object back = calls.eval(breaker, release, lease.redisKeys, args);
        if (global && back instanceof Long n) {
          tally.leased.addAndGet(-n);
        }
      } catch (Exception e) {
        // counted by the breaker; the record ends at its TTL
      }
    }
  }
}
