package io.github.limiter.redis;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.LiveVersions;
import io.github.limiter.NanoClock;
import io.github.limiter.Peek;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.StoreHealth;
import io.github.limiter.UpstreamBlocks;
import io.github.limiter.internal.live.LiveBoard;
import io.github.limiter.internal.metrics.RegionBudgets;
import io.github.limiter.memory.InMemoryStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import redis.clients.jedis.UnifiedJedis;

/**
 * A store in Redis, standalone or Cluster, for limits shared by every node of a deployment.
 *
 * <p>Each decision is one EVALSHA of the policy's algorithm script, which checks and charges all of
 * the policy's limits atomically, with the server's {@code TIME} as the clock (or, in caller mode,
 * a time the caller passes). The scripts compute exactly what the pure functions of {@code
 * io.github.limiter.internal.algorithm} compute at microsecond resolution. Every key expires soon
 * after it is fresh again.
 *
 * <p>A decision never waits longer than the decision timeout. When Redis fails or is too slow, the
 * policy's {@link FailureMode} decides, and a circuit breaker keeps a dead Redis from costing every
 * decision a timeout.
 *
 * <p>A concurrency policy's permits are held per node, under a hold this store renews every {@link
 * RedisStoreBuilder#concurrencyHold} / 3 until they are released: a node that dies holds them at
 * most one hold TTL after its last renewal.
 *
 * <p>A policy in lease mode ({@link RedisStoreBuilder#lease}) is decided from slices of its limits
 * that this node reserved in Redis beforehand: see {@code Leases}.
 *
 * <pre>{@code
 * RedisStore store = RedisStore.builder()
 *     .url("rediss://limiter:secret@redis.example:6380/0")
 *     .decisionTimeout(Duration.ofMillis(100))
 *     .build();
 * }</pre>
 */
public final class RedisStore implements RateLimitStore, LiveVersions, Peek, UpstreamBlocks {

  /** The origin of server time in the scripts: 2025-01-01T00:00:00Z, in Unix seconds. */
  public static final long EPOCH_SECONDS = 1_735_689_600L;

  private static final String SERVER_TIME = "";

  private static final String NO_TTL_FLOOR = "0";

  private final GuardedCalls calls;
  private final KeyScheme keys;
  private final NanoClock callerClock;

  /** The wall clock of calendar quotas; under a caller clock, its reading at build time. */
  private final Clock wallClock;

  /**
   * The epoch microseconds at which the scripts' microseconds are 0: 2025-01-01 under server time,
   * the wall clock's reading at build time under caller time.
   */
  private final long scriptEpochMicros;

  private final long callerEpoch;
  private final String ttlFloor;

  private final int localNodes;
  private final InMemoryStore local;
  private final ConcurrentHashMap<Policy, CompiledPolicy> compiled = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Policy, Policy> divided = new ConcurrentHashMap<>();

  /** The policies in lease mode, if any is. */
  private final Leases leases;

  /** This store's id as a holder of concurrency permits: random, so that each node has its own. */
  private final String node;

  private final long holdNanos;

  /** The concurrency permits this node holds, renewed until they are released. */
  private final Holdings holdings;

  /** Same-key groups of decisions, decided in one script call each. */
  private final Groups groups;

  private final GroupCalls groupCalls;

  /** The policies' live versions and the keys' overrides, shared by every node. */
  private final RedisBoard board;

  RedisStore(RedisStoreBuilder b, Transport transport) {
    this.calls =
        new GuardedCalls(
            transport,
            b.clock,
            b.decisionTimeout.toNanos(),
            b.breakerFailureThreshold,
            b.breakerOpenDuration.toNanos(),
            b.logInterval);
    this.keys = new KeyScheme(b.keyPrefix);
    this.callerClock = b.callerClock;
    this.callerEpoch = callerClock == null ? 0 : callerClock.nanos();
    this.wallClock = b.wallClock;
    Instant wall = wallClock.instant();
    this.scriptEpochMicros =
        callerClock == null
            ? EPOCH_SECONDS * 1_000_000L
            : wall.getEpochSecond() * 1_000_000L + wall.getNano() / 1_000;
    this.ttlFloor = callerClock == null ? NO_TTL_FLOOR : Long.toString(b.callerTtlFloor.toMillis());
    this.localNodes = b.localNodes;
    this.node = newNodeId();
    this.holdNanos = b.concurrencyHold.toNanos();
    this.holdings = new Holdings(holdNanos, this::renew);
    this.groupCalls = new GroupCalls(this, calls);
    this.groups = new Groups(groupCalls, calls.clock(), calls.budgetNanos());
    this.board = new RedisBoard(calls, keys.prefix(), this::now);
    this.local =
        InMemoryStore.builder()
            .clock(callerClock == null ? NanoClock.system() : callerClock)
            .wallClock(wallClock)
            .build();
    this.leases =
        b.leases.isEmpty()
            ? null
            : new Leases(
                new LeaseHost(),
                keys,
                callerClock == null ? NanoClock.system() : callerClock,
                b.leases,
                b.leaseBackground,
                b.regionPools(keys));
  }

  public static RedisStoreBuilder builder() {
    return new RedisStoreBuilder();
  }

  /**
   * Logs that Redis could not be reached (or refused the login) at start-up: the store starts all
   * the same.
   */
  static void warnUnreachable(String where, Exception e) {
    CircuitBreaker.LOG.logp(
        Level.WARNING,
        RedisStore.class.getName(),
        "start",
        "Cannot connect to "
            + where
            + " at start-up ("
            + CircuitBreaker.describe(e)
            + "); the store starts anyway, and each policy's failure"
            + " mode decides until Redis answers");
  }

  /**
   * The full text of the decide script of {@code algorithm}, as loaded into Redis: for tools and
   * benchmarks that run it themselves.
   */
  public static String decideScript(Algorithm algorithm) {
    return Scripts.decide(algorithm).source();
  }

  @Override
  public Decision decide(Policy policy, String key, long permits) {
    if (leases != null) {
      Decision leased = leases.decide(policy, key, permits);
      if (leased != null) {
        return leased;
      }
    }
    return decide(compile(policy), key, permits);
  }

  /**
   * Decides in a same-key group ({@link Groups}) while the key's node is healthy, but for the
   * concurrency limit, whose admissions are held one by one. Once the node's breaker has opened a
   * caller decides alone: behind the one probe a half-open breaker lets through, the key's other
   * callers follow the failure mode at once instead of waiting for the probe in its group.
   */
  Decision decide(CompiledPolicy c, String key, long permits) {
    if (c.renew == null && calls.breaker(c, key).closed()) {
      return groups.decide(c, key, permits);
    }
    long deadline = calls.clock().nanos() + calls.budgetNanos();
    Decision decision = groupCalls.decide(c, key, permits, 1, deadline)[0];
    if (decision.isAllowed() && decision.isVerified()) {
      holdings.acquired(c, c.keys(key), permits); // held until given back
    }
    return decision;
  }

  /**
   * For tests: decides {@code size} requests of {@code permits} on {@code key} in one group call,
   * under the version {@code bound} (a handle of {@link #rebind}, or of the policy as it is).
   */
  Decision[] decideGroup(PolicyStore bound, String key, long permits, int size) {
    CompiledPolicy c = bound instanceof CompiledVersion v ? v.c : compile(bound.policy());
    return groupCalls.decide(c, key, permits, size, calls.clock().nanos() + calls.budgetNanos());
  }

  /**
   * Reads the key's state in one script that writes nothing. A policy in lease mode reads what
   * Redis holds, not the slices the nodes hold. Throws if Redis does not answer.
   */
  @Override
  public Decision peek(Policy policy, String key) {
    return peek(compile(policy), key);
  }

  /** The key's state under the version {@code bound} decides: its own scripts after a rebind. */
  @Override
  public Decision peek(PolicyStore bound, String key) {
    return peek(
        bound instanceof CompiledVersion version ? version.c : compile(bound.policy()), key);
  }

  Decision peek(CompiledPolicy c, String key) {
    List<String> redisKeys = c.keys(key);
    try {
      return c.peeked(eval(calls.breaker(redisKeys), c, c.peek, redisKeys, 0));
    } catch (Exception e) {
      throw new IllegalStateException("Redis did not answer: " + e.getMessage(), e);
    }
  }

  @Override
  public void adjust(Policy policy, String key, long delta) {
    if (delta == 0) {
      return;
    }
    if (leases != null && leases.isLeased(policy)) {
      // Lease mode settles nothing: a refund may concern a slice that has ended since, and giving
      // it to the next one would admit more than exact mode; a charge would need a slice it has
      // not.
      return;
    }
    adjust(compile(policy), key, delta);
  }

  void adjust(CompiledPolicy c, String key, long delta) {
    Policy policy = c.policy;
    List<String> redisKeys = c.keys(key);
    long toRedis = delta;
    if (c.renew != null && delta < 0) {
      // A concurrency release: what this node holds in Redis goes back there; the rest was
      // admitted by the failure mode, locally. Once forgotten here, a hold that this release
      // fails to reach ends within its TTL.
      long held = holdings.released(redisKeys, -delta);
      if (held < -delta && policy.failureMode() == FailureMode.LOCAL) {
        local.adjust(localPolicy(policy), key, delta + held);
      }
      if (held == 0) {
        return;
      }
      toRedis = -held;
    }
    CircuitBreaker breaker = calls.breaker(redisKeys);
    if (breaker.state() == CircuitBreaker.State.CLOSED) {
      try {
        eval(breaker, c, c.adjust, redisKeys, toRedis);
        if (c.renew != null && toRedis > 0) {
          holdings.acquired(c, redisKeys, toRedis); // held like an admission's, until given back
        }
        return;
      } catch (Exception e) {
        // counted by the breaker; the failure mode settles it
      }
    }
    if (policy.failureMode() == FailureMode.LOCAL && (c.renew == null || toRedis > 0)) {
      local.adjust(localPolicy(policy), key, toRedis);
    }
  }

  /**
   * One script call, {@code block.lua}, on the key {@code <prefix>{<policy>:<key>}:block}, in the
   * server's time; while Redis cannot answer, this node blocks on its own (in its local store).
   */
  @Override
  public long block(Policy policy, String key, long nanos) {
    List<String> redisKeys = List.of(KeyScheme.tag(keys.head(policy.name()), key) + "block");
    // Whole microseconds, below 2^53 for Lua's doubles (up to about 31 years).
    long micros = nanos <= 0 ? 0 : Math.min(Math.max(1, nanos / 1_000), 1_000_000_000_000_000L);
    CircuitBreaker breaker = calls.breaker(redisKeys);
    if (breaker.tryAcquire()) {
      try {
        Object reply =
            calls.eval(breaker, Scripts.block(), redisKeys, List.of(now(), "" + micros, ttlFloor));
        local.block(policy, key, nanos); // known here too, should Redis fail later
        return ((Number) reply).longValue() * 1_000;
      } catch (Exception e) {
        // counted by the breaker; this node blocks on its own
      }
    }
    breaker.onFallback();
    return local.block(policy, key, nanos);
  }

  /** Re-stamps this node's holds under one holding's keys; a failure leaves them to end. */
  private void renew(Holdings.Holding holding) {
    CircuitBreaker breaker = calls.breaker(holding.keys());
    if (breaker.state() != CircuitBreaker.State.CLOSED) {
      return;
    }
    CompiledPolicy c = holding.policy();
    try {
      eval(breaker, c, c.renew, holding.keys(), 1);
    } catch (Exception e) {
      // counted by the breaker; the holds end within their TTL
    }
  }

  /** Gives back what this node still holds, within the decision timeout each; best effort. */
  private void releaseHoldings() {
    for (Holdings.Holding holding : holdings.close()) {
      CompiledPolicy c = holding.policy();
      try {
        eval(calls.breaker(holding.keys()), c, c.adjust, holding.keys(), -holding.count());
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // the holds end within their TTL
      }
    }
  }

  /**
   * Runs one of {@code c}'s scripts with the time, the permits, the TTL floor, the policy's
   * parameters and its quotas' periods around this node's wall clock. A script that finds the
   * server's time outside those periods (this node's clock off by more than a period) answers that
   * time, and runs again with the periods around it: one more round trip.
   */
  private Object eval(
      CircuitBreaker breaker, CompiledPolicy c, Scripts.Script script, List<String> keys, long n)
      throws Exception {
    return eval(
        breaker, c, script, keys, Long.toString(n), calls.clock().nanos() + calls.budgetNanos());
  }

  /**
   * {@link #eval}, with ARGV[2] as given (a number of permits, or a group's "permits:size"), within
   * {@code deadlineNanos}.
   */
  Object eval(
      CircuitBreaker breaker,
      CompiledPolicy c,
      Scripts.Script script,
      List<String> keys,
      String n,
      long deadlineNanos)
      throws Exception {
    String now = now();
    long at =
        callerClock == null ? wallClock.millis() * 1_000L - scriptEpochMicros : Long.parseLong(now);
    Object reply =
        calls.eval(
            breaker,
            script,
            keys,
            c.quotaArgs(now, n, ttlFloor, at, scriptEpochMicros),
            deadlineNanos);
    OptionalLong server = CompiledPolicy.outsidePeriods(reply);
    return server.isEmpty()
        ? reply
        : calls.eval(
            breaker,
            script,
            keys,
            c.quotaArgs(now, n, ttlFloor, server.getAsLong(), scriptEpochMicros),
            deadlineNanos);
  }

  private static String newNodeId() {
    byte[] bytes = new byte[9];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The failure mode's decision, counted by {@code breaker} as a fallback. */
  Decision fallback(CircuitBreaker breaker, Policy policy, String key, long permits) {
    breaker.onFallback();
    return switch (policy.failureMode()) {
      case FAIL_OPEN -> Decision.allowedUnverified(policy.name(), policy.limits().get(0));
      case FAIL_CLOSED ->
          Decision.unavailable(policy.name(), policy.limits().get(0), breaker.retryAfterNanos());
      case LOCAL -> local.decide(localPolicy(policy), key, permits).unverified();
    };
  }

  private Policy localPolicy(Policy policy) {
    Policy share = divided.get(policy);
    return share != null ? share : divided.computeIfAbsent(policy, p -> p.dividedBy(localNodes));
  }

  private CompiledPolicy compile(Policy policy) {
    CompiledPolicy c = compiled.get(policy);
    return c != null
        ? c
        : compiled.computeIfAbsent(policy, p -> new CompiledPolicy(p, keys, node, holdNanos, ""));
  }

  // ---------------------------------------------------------------------------- live limits

  /**
   * A handle of {@code next} whose scripts carry each key's state over from the limits it was
   * stored under, as of the instant {@code next} was published on this store's board (or now, in
   * caller time, or at the key's next decision when it was not published); see each algorithm's
   * script. A policy in lease mode keeps its limits.
   */
  @Override
  public PolicyStore rebind(PolicyStore bound, Policy next) {
    Policy old = bound.policy();
    if (!old.name().equals(next.name()) || old.algorithm() != next.algorithm()) {
      throw new IllegalArgumentException(
          "a new version of policy '"
              + old.name()
              + "' keeps its name and algorithm "
              + old.algorithm()
              + ", was "
              + next);
    }
    if (leases != null && leases.isLeased(old)) {
      throw new UnsupportedOperationException(
          "policy '" + old.name() + "' is in lease mode, whose slices keep the limits they have");
    }
    if (!replaced.add(bound)) {
      throw new IllegalArgumentException("already replaced: " + old);
    }
    LiveBoard.Published published = board.published(next.name());
    String since =
        published != null && Limit.parseAll(published.limits()).equals(next.limits())
            ? Long.toString(published.sinceMicros())
            : now();
    return new CompiledVersion(this, new CompiledPolicy(next, keys, node, holdNanos, since));
  }

  /** Its views, the board of live versions and overrides, and in a region {@link RegionBudgets}. */
  @Override
  public <T> Optional<T> view(Class<T> capability) {
    if (capability == RegionBudgets.class && leases != null && leases.regions != null) {
      return Optional.of(capability.cast(leases.regions));
    }
    return capability == LiveBoard.class
        ? Optional.of(capability.cast(board))
        : RateLimitStore.super.view(capability);
  }

  /** The handles that {@link #rebind} replaced: each version is replaced once. */
  private final Set<PolicyStore> replaced = ConcurrentHashMap.newKeySet();

  /** The scripts' ARGV[1]: '' for server time, else caller time in microseconds. */
  private String now() {
    return callerClock == null
        ? SERVER_TIME
        : Long.toString(Math.floorDiv(callerClock.nanos() - callerEpoch, 1_000L));
  }

  @Override
  public TimeSource timeSource() {
    return callerClock == null ? TimeSource.SERVER : TimeSource.CALLER;
  }

  /**
   * Up while the breaker of every node that serves slots now is closed; the worst of their states,
   * and the last error seen on any of them, prefixed with its node.
   */
  @Override
  public StoreHealth health() {
    Map<String, CircuitBreaker> breakers = calls.breakers();
    Set<String> serving = calls.transport().nodes();
    if (!serving.isEmpty()) {
      breakers
          .keySet()
          .retainAll(serving); // forget masters that failed over, and the unknown topology
    }
    CircuitBreaker.State worst = CircuitBreaker.State.CLOSED;
    CircuitBreaker lastFailed = null;
    for (CircuitBreaker breaker : breakers.values()) {
      CircuitBreaker.State state = breaker.state();
      if (state != CircuitBreaker.State.CLOSED && worst != CircuitBreaker.State.OPEN) {
        worst = state;
      }
      if (breaker.lastFailure().isPresent()
          && (lastFailed == null
              || breaker.lastFailure().get().at().isAfter(lastFailed.lastFailure().get().at()))) {
        lastFailed = breaker;
      }
    }
    Optional<CircuitBreaker.Failure> failure =
        lastFailed == null ? Optional.empty() : lastFailed.lastFailure();
    String node = lastFailed == null ? "" : lastFailed.node() + ": ";
    return new StoreHealth(
        worst == CircuitBreaker.State.CLOSED,
        worst.label,
        failure.map(f -> node + f.message()),
        failure.map(CircuitBreaker.Failure::at));
  }

  /** The key prefix, e.g. {@code limiter:}. */
  public String keyPrefix() {
    return keys.prefix();
  }

  /** The Redis key of limit {@code limitIndex} of {@code policy} for {@code clientKey}. */
  public String redisKey(Policy policy, String clientKey, int limitIndex) {
    return compile(policy).keys(clientKey).get(limitIndex);
  }

  /** Gives back the slices of lease mode first, then closes the connections. */
  @Override
  public void close() {
    if (leases != null) {
      leases.close();
    }
    releaseHoldings();
    calls.transport().close();
    local.close();
  }

  /** What lease mode needs of this store, and no more. */
  private final class LeaseHost implements Leases.Host {
    @Override
    public GuardedCalls calls() {
      return calls;
    }

    @Override
    public String now() {
      return RedisStore.this.now();
    }

    @Override
    public String ttlFloor() {
      return ttlFloor;
    }

    @Override
    public Decision fallback(CircuitBreaker breaker, Policy policy, String key, long permits) {
      return RedisStore.this.fallback(breaker, policy, key, permits);
    }
  }

  /** For tests: the underlying client of a standalone store. */
  UnifiedJedis client() {
    if (calls.transport() instanceof DirectTransport direct) {
      return direct.jedis();
    }
    return ((WorkerTransport) calls.transport()).jedis();
  }

  /** For tests: the concurrency permits this node holds. */
  Holdings holdings() {
    return holdings;
  }

  /**
   * For tests: stops renewing and forgets what this node holds, releasing nothing, as a node that
   * dies does.
   */
  void crash() {
    holdings.close();
  }

  /** For tests: this store's node id. */
  String node() {
    return node;
  }

  /** For tests: lease mode, or null if no policy is in it. */
  Leases leases() {
    return leases;
  }

  /** For tests: how it reaches Redis. */
  Transport transport() {
    return calls.transport();
  }

  /** For tests: the parsed decision budget. */
  long budgetNanos() {
    return calls.budgetNanos();
  }
}
