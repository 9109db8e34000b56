package io.github.limiter.redis;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.log.LogText;
import io.github.limiter.internal.metrics.RegionBudgets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;

/**
 * Global policies (docs/multi-region.md): one budget in the global Redis, leased to each region's
 * pool in the region's Redis, from which the region's nodes lease their slices ({@link Leases},
 * with {@code region-lease.lua} instead of {@code lease.lua}).
 *
 * <p>A refill moves a slice from the global budget to this region's pool in three script calls,
 * none on a request's path: {@code region-begin.lua} (regional: the refill lock, the time t0, what
 * the region holds), {@code lease.lua} (global: the grant, exactly as lease mode grants a node, the
 * region being the lessee), {@code region-credit.lua} (regional: the pool holds the grant until t0
 * + the global lease's span − margin). The lock, a Redis key with a TTL, keeps one refill in flight
 * per region and key across the region's nodes; this node also keeps one in flight per key.
 *
 * <p>At close, once this node's slices went back to the pools, a pool that no other node of the
 * region leases from goes back to the global budget ({@code region-return.lua}, then {@code
 * release.lua} keeping the region's lease), so that a region whose last node stops strands nothing.
 */
final class RegionPools implements AutoCloseable, RegionBudgets {

  /** The names of a region: what a Redis key and a log line can carry as is. */
  static final String REGION_NAME = "[A-Za-z0-9_.-]{1,64}";

  /**
   * What a region does once its pool is spent and the global Redis cannot be reached: refuse
   * (permits 0), or admit up to {@code permits} per {@code perNanos} on its own.
   */
  record Failure(long permits, long perNanos) {

    static final Failure REFUSE = new Failure(0, 0);

    /** {@code refuse}, or {@code allow <permits>/<duration>} (as a limit: {@code allow 100/m}). */
    static Failure parse(String text) {
      String t = text.strip();
      if (t.equals("refuse")) {
        return REFUSE;
      }
      if (t.startsWith("allow ")) {
        Limit limit = Limit.parse(t.substring("allow ".length()).strip());
        return new Failure(limit.permits(), limit.periodNanos());
      }
      throw new IllegalArgumentException(
          "expected refuse or allow <permits>/<duration> such as allow 100/m, was '" + text + "'");
    }

    @Override
    public String toString() {
      return permits == 0 ? "refuse" : "allow " + permits + " per " + perNanos / 1_000_000 + " ms";
    }
  }

  /** Counts of this node's refills, for tests. */
  static final class Counts {
    final AtomicLong refills = new AtomicLong();
    final AtomicLong granted = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong local = new AtomicLong();
  }

  /** What this node's last refill of a policy's pool learnt from the global Redis. */
  record Refill(double ratePerSecond, long granted, long fairShare, long remaining, long atNanos) {}

  /** One global policy's budget as this node knows it: {@link RegionBudgets.Share}'s figures. */
  static final class Tally {
    final AtomicLong leased = new AtomicLong();
    final AtomicLong returned = new AtomicLong();
    final AtomicLong stranded = new AtomicLong();
    volatile Refill refill;

    /** The policy's leases on this node, whose pools' counts are what the region holds. */
    volatile Leases.Leased leases;
  }

  private static final Scripts.Script BEGIN = Scripts.region("region-begin");
  private static final Scripts.Script CREDIT = Scripts.region("region-credit");
  private static final Scripts.Script RETURN = Scripts.region("region-return");
  static final Scripts.Script LEASE = Scripts.region("region-lease");
  static final Scripts.Script RELEASE = Scripts.region("region-release");

  final String region;
  private final Set<String> policies;
  private final Failure failure;
  private final GuardedCalls global;
  private final KeyScheme globalKeys;
  private final ExecutorService refiller;
  private final ConcurrentHashMap<String, Boolean> inFlight = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, CompiledPolicy> compiled = new ConcurrentHashMap<>();
  private final String token;
  private final AtomicLong sequence = new AtomicLong();
  final Counts counts = new Counts();
  private final ConcurrentHashMap<String, Tally> tallies = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private volatile boolean cut;

  /** How long a call to the global Redis takes, in µs: a moving average, 0 before the first. */
  private volatile long refillMicros;

  /**
   * @param global script calls to the global Redis, with their own budget and breakers
   * @param globalKeys the key scheme of the global budget (the store's)
   * @param background whether refills run on a thread of their own; without, on the caller's
   */
  RegionPools(
      String region,
      Set<String> policies,
      Failure failure,
      GuardedCalls global,
      KeyScheme globalKeys,
      boolean background) {
    this.region = region;
    this.policies = Set.copyOf(policies);
    this.failure = failure;
    this.global = global;
    this.globalKeys = globalKeys;
    byte[] id = new byte[6];
    new SecureRandom().nextBytes(id);
    this.token = HexFormat.of().formatHex(id);
    for (String policy : this.policies) {
      tallies.put(policy, new Tally());
    }
    if (background) {
      AtomicInteger count = new AtomicInteger();
      this.refiller =
          Executors.newFixedThreadPool(
              2,
              runnable -> {
                Thread thread =
                    new Thread(runnable, "limiter-redis-region-refill-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
              });
    } else {
      this.refiller = null;
    }
  }

  /** Whether the policy (or plan) named {@code name} is global. */
  boolean isGlobal(String name) {
    return policies.contains(name);
  }

  /** The figures of a global policy, {@code name}; null if it is not global. */
  Tally tally(String name) {
    return tallies.get(name);
  }

  @Override
  public String region() {
    return region;
  }

  @Override
  public List<String> policies() {
    return policies.stream().sorted().toList();
  }

  @Override
  public Optional<Share> share(String policy) {
    Tally tally = tallies.get(policy);
    if (tally == null) {
      return Optional.empty();
    }
    long held = 0;
    Leases.Leased leased = tally.leases;
    if (leased != null) {
      for (Lease lease : leased.keys.values()) {
        held += lease.poolSeen;
      }
    }
    Refill refill = tally.refill;
    return Optional.of(
        new Share(
            policy,
            held,
            tally.leased.get(),
            tally.returned.get(),
            tally.stranded.get(),
            refill == null ? 0 : refill.ratePerSecond(),
            refill == null ? 0 : refill.granted(),
            refill == null ? 0 : refill.fairShare(),
            refill == null ? 0 : refill.remaining(),
            refill == null
                ? Optional.empty()
                : Optional.of(Duration.ofNanos(global.clock().nanos() - refill.atNanos()))));
  }

  /**
   * The region's keys of a client key, from its lease-mode keys (the last is {@code
   * <tag><alg>-leases}): the pool, the nodes' leases and the refill lock, in the same slot and
   * apart from the global budget's keys even when the global Redis is this region's.
   */
  static List<String> regionKeys(List<String> leaseKeys) {
    String leases = leaseKeys.get(leaseKeys.size() - 1);
    String base = leases.substring(0, leases.length() - "leases".length()) + "region-";
    return List.of(base + "pool", base + "nodes", base + "refill");
  }

  /**
   * The bound of a global policy, as logged at start-up: never more than exact mode on one Redis
   * (or the cut-off regions' allowance), and at most regions × regional slice + nodes × node slice
   * less.
   */
  static String bound(String region, Policy p, long maxSlice, Failure failure) {
    long capacity = p.limits().stream().mapToLong(Limit::burst).min().orElseThrow();
    long slice = Math.min(maxSlice, capacity);
    return "Global policy "
        + LogText.quote(p.name())
        + " in region "
        + LogText.quote(region)
        + ": admits never more than exact mode on one Redis"
        + (failure.permits() == 0
            ? ""
            : ", plus " + failure + " for each region cut off from the global Redis")
        + "; at most regions × "
        + slice
        + " + nodes × "
        + slice
        + " less (regional slice = node slice = min(lease-max-slice, capacity) = min("
        + maxSlice
        + ", "
        + capacity
        + "), the regional one also at most capacity ÷ active regions); region-failure="
        + failure;
  }

  /** Whether {@code algorithm} may be global: the algorithms of lease mode. */
  static boolean allowed(Algorithm algorithm) {
    return Scripts.leases(algorithm);
  }

  /**
   * Starts a refill of the pool of {@code key} unless one is in flight on this node; {@code force}
   * when a node lacks permits (else the pool says a refill is due).
   */
  void refill(Leases.Leased leased, Lease lease, boolean force) {
    if (closed) {
      return;
    }
    String pool = lease.redisKeys.get(0);
    if (inFlight.putIfAbsent(pool, Boolean.TRUE) != null) {
      return;
    }
    Runnable run =
        () -> {
          try {
            refillNow(leased, lease, force);
          } catch (RuntimeException e) {
            CircuitBreaker.LOG.log(Level.FINE, "region refill failed", e);
          } finally {
            inFlight.remove(pool);
          }
        };
    if (refiller == null) {
      run.run();
      return;
    }
    try {
      refiller.execute(run);
    } catch (RejectedExecutionException e) {
      inFlight.remove(pool);
    }
  }

  /** One refill of {@code lease}'s pool, if due and no other is in flight in the region. */
  void refillNow(Leases.Leased leased, Lease lease, boolean force) {
    Leases.Host host = leased.leases().host();
    GuardedCalls regional = host.calls();
    List<String> keys = lease.redisKeys;
    CircuitBreaker breaker = regional.breaker(keys);
    if (!breaker.tryAcquire()) {
      return;
    }
    String mine = token + ":" + sequence.incrementAndGet();
    long lockMillis = Math.max(1000, 10 * global.budgetNanos() / 1_000_000);
    List<?> begun;
    try {
      Object reply =
          regional.eval(
              breaker,
              BEGIN,
              keys,
              List.of(
                  host.now(),
                  "0",
                  host.ttlFloor(),
                  mine,
                  Long.toString(lockMillis),
                  force ? "1" : "0"));
      begun = (List<?>) reply;
    } catch (Exception e) {
      return; // the regional Redis is the store's: its failure mode decides
    }
    if (number(begun.get(0)) == 0) {
      return;
    }
    long t0 = number(begun.get(1));
    long held = number(begun.get(2));
    long taken = number(begun.get(3));
    long takenAt = number(begun.get(4));
    long at = number(begun.get(5));
    long lastGrant = number(begun.get(6));
    boolean dry = number(begun.get(7)) == 1;
    Policy policy = leased.policy;
    Tally tally = tallies.get(policy.name());
    tally.stranded.addAndGet(number(begun.get(8)));
    long capacity = policy.limits().stream().mapToLong(Limit::burst).min().orElseThrow();
    long cap = Math.min(leased.settings.maxSlice(), capacity);
    long refreshMicros = leased.settings.refresh().toNanos() / 1000;
    // The pool must last a refresh interval and the refill that renews it (twice the last one's
    // time, for jitter); it is renewed that long before it ends, and below what that time takes.
    long lead = refreshMicros + 2 * refillMicros;
    double rate = at == 0 || t0 <= at ? 0 : (double) Math.max(0, taken - takenAt) / (t0 - at);
    long wanted = wanted(at, rate, lastGrant, dry || force, lead, cap);
    long low =
        Math.max(
            1,
            Math.max(
                (long) Math.ceil(leased.settings.lowWater() * wanted),
                (long) Math.ceil(rate * 2 * refillMicros)));
    CompiledPolicy globalPolicy =
        compiled.computeIfAbsent(policy.name(), n -> new CompiledPolicy(policy, globalKeys));
    List<String> globalKeys = globalPolicy.leaseKeys(lease.key);
    List<String> args = new ArrayList<>(globalPolicy.args(host.now(), 1, host.ttlFloor()));
    args.add(region);
    args.add(Long.toString(wanted));
    args.add(Long.toString(held));
    args.add(Long.toString(leased.settings.ttl().toNanos() / 1000));
    args.add(Long.toString(cap));
    args.add(Long.toString(capacity));
    long granted;
    long spend;
    long retry;
    boolean local = false;
    CircuitBreaker globalBreaker = global.breaker(globalKeys);
    try {
      if (cut) {
        throw new IllegalStateException("cut off from the global Redis (for tests)");
      }
      if (closed || !globalBreaker.tryAcquire()) {
        throw new IllegalStateException(closed ? "closed" : "circuit breaker open");
      }
      long sent = global.clock().nanos();
      List<?> reply =
          (List<?>) global.eval(globalBreaker, Scripts.lease(policy.algorithm()), globalKeys, args);
      long took = (global.clock().nanos() - sent) / 1000;
      refillMicros = refillMicros == 0 ? took : (refillMicros * 3 + took) / 4;
      granted = number(reply.get(0));
      spend = number(reply.get(1));
      retry = number(reply.get(2));
      long active = Math.max(1, number(reply.get(6)));
      tally.refill =
          new Refill(
              rate * 1_000_000,
              granted,
              Math.max(1, capacity / active),
              number(reply.get(3)),
              global.clock().nanos());
      counts.refills.incrementAndGet();
      counts.granted.addAndGet(granted);
    } catch (Exception e) {
      // Cut off: the region spends what it holds, then refuses or takes its local allowance.
      counts.failures.incrementAndGet();
      local = true;
      granted = failure.permits();
      spend = failure.permits() == 0 ? refreshMicros : failure.perNanos() / 1000;
      retry = refreshMicros;
    }
    long margin = local ? 0 : Leases.MARGIN_NANOS / 1000 + spend / 1000;
    List<String> credit =
        List.of(
            host.now(),
            Long.toString(granted),
            host.ttlFloor(),
            mine,
            Long.toString(t0),
            Long.toString(spend),
            Long.toString(margin),
            Long.toString(lead),
            Long.toString(taken),
            Long.toString(retry),
            Long.toString(low),
            local ? "1" : "0");
    try {
      long count = number(regional.eval(breaker, CREDIT, keys, credit));
      if (count < 0 && !local) {
        tally.stranded.addAndGet(granted);
      } else {
        lease.poolSeen = count;
        if (local && granted > 0) {
          counts.local.addAndGet(granted);
        }
      }
    } catch (Exception e) {
      if (!local) {
        tally.stranded.addAndGet(granted); // charged in the global Redis, spent by nobody
      }
    }
  }

  /**
   * At close, after this node gave its slice of {@code lease}'s key back to the pool: gives what
   * the pool holds back to the global budget, unless another node of the region leases from it. The
   * pool is emptied first, then the global Redis refunds it and lowers the region's lease by as
   * much: a step that fails loses permits (stranded), never doubles them.
   */
  void giveBack(Leases.Leased leased, Lease lease) {
    Leases.Host host = leased.leases().host();
    GuardedCalls regional = host.calls();
    CircuitBreaker breaker = regional.breaker(lease.redisKeys);
    if (breaker.state() != CircuitBreaker.State.CLOSED) {
      return; // the pool ends at its expiry
    }
    long taken;
    try {
      taken =
          number(
              regional.eval(
                  breaker, RETURN, lease.redisKeys, List.of(host.now(), "0", host.ttlFloor())));
    } catch (Exception e) {
      return;
    }
    if (taken <= 0) {
      return;
    }
    lease.poolSeen = 0;
    Policy policy = leased.policy;
    Tally tally = tallies.get(policy.name());
    CompiledPolicy globalPolicy =
        compiled.computeIfAbsent(policy.name(), n -> new CompiledPolicy(policy, globalKeys));
    List<String> keys = globalPolicy.leaseKeys(lease.key);
    List<String> args = new ArrayList<>(globalPolicy.args(host.now(), taken, host.ttlFloor()));
    args.add(region);
    args.add("keep");
    long returned = 0;
    try {
      CircuitBreaker globalBreaker = global.breaker(keys);
      if (!cut && globalBreaker.tryAcquire()) {
        returned =
            number(global.eval(globalBreaker, Scripts.release(policy.algorithm()), keys, args));
      }
    } catch (Exception e) {
      // the global Redis keeps them charged to the region until its lease there ends
    }
    tally.returned.addAndGet(returned);
    tally.stranded.addAndGet(taken - returned);
  }

  /**
   * What the region asks the global Redis for: its rate since the last refill (permits per µs) ×
   * the horizon (the refresh interval and the time of two refills); at least twice the last grant
   * when its nodes lacked permits since (so that a region whose traffic grows reaches its share in
   * a few refills); the cap on the first refill.
   */
  static long wanted(
      long at, double rate, long lastGrant, boolean lacked, long horizonMicros, long cap) {
    if (at == 0) {
      return cap;
    }
    long wanted = (long) Math.ceil(rate * horizonMicros);
    if (lacked) {
      wanted = Math.max(wanted, 2 * lastGrant);
    }
    return Math.max(1, Math.min(cap, wanted));
  }

  private static long number(Object value) {
    if (value instanceof Long n) {
      return n;
    }
    throw new IllegalStateException("expected an integer in a region script's reply, was " + value);
  }

  /** For tests: every call to the global Redis fails from now on, as in a partition. */
  void cutForTest() {
    cut = true;
  }

  /** Starts no refill from now on, and waits for those in flight. */
  void stopRefills() {
    closed = true;
    if (refiller != null) {
      refiller.shutdown();
      try {
        refiller.awaitTermination(2 * global.budgetNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    stopRefills();
    global.transport().close();
  }
}
