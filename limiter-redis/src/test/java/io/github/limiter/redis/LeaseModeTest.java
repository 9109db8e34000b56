package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lease mode against exact mode on the same schedule, four stores standing for four nodes, under
 * caller time (one manual clock), so that every schedule replays exactly. Grants below the
 * low-water mark run on the deciding thread and sweeps run when the schedule says, as a refresh
 * interval of the manual clock passes.
 */
@ExtendWith(RedisExtension.class)
class LeaseModeTest {

  static final int NODES = 4;
  static final int MAX_SLICE = 20;
  static final double LOW_WATER = 0.25;

  /** The most one node holds: a slice, on top of what was left below the low-water mark. */
  static final long HELD = MAX_SLICE + (long) Math.ceil(LOW_WATER * MAX_SLICE);

  static final Duration REFRESH = Duration.ofMillis(100);
  static final Duration TTL = Duration.ofSeconds(1);

  private static List<RedisStore> stores(
      RedisServer server, ManualClock clock, String prefix, String leased) {
    List<RedisStore> stores = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      RedisStoreBuilder b =
          RedisStore.builder()
              .url(server.url())
              .keyPrefix(prefix)
              .callerClock(clock)
              .decisionTimeout(Duration.ofSeconds(2))
              .socketTimeout(Duration.ofSeconds(2));
      if (leased != null) {
        b.lease(leased, REFRESH, TTL, MAX_SLICE, LOW_WATER).leaseInline();
      }
      stores.add(b.build());
    }
    return stores;
  }

  /**
   * Admitted in exact and in lease mode, and requests, per window of {@code windowNanos} (one, for
   * buckets).
   */
  record Tally(Map<Long, long[]> perWindow) {
    long exact() {
      return perWindow.values().stream().mapToLong(c -> c[0]).sum();
    }

    long leased() {
      return perWindow.values().stream().mapToLong(c -> c[1]).sum();
    }

    long requests() {
      return perWindow.values().stream().mapToLong(c -> c[2]).sum();
    }
  }

  /**
   * Replays one random schedule on four exact and four leased stores at once: the clock moves by up
   * to 30 ms (with {@code gaps}, one step in ten moves up to 1.5 s, so that limits refill and idle
   * leases go back), then a random node takes a burst of up to 20 requests. Every refresh interval
   * of the clock, each leased store sweeps, as its sweeper thread would.
   */
  private static Tally replay(
      RedisServer server, Policy policy, long seed, long windowNanos, boolean gaps) {
    ManualClock clock = ManualClock.random(seed);
    long start = clock.peek();
    String run = UUID.randomUUID().toString();
    List<RedisStore> exact = stores(server, clock, "exact:" + run + ":", null);
    List<RedisStore> leased = stores(server, clock, "lease:" + run + ":", policy.name());
    Random random = new Random(seed);
    Map<Long, long[]> tally = new TreeMap<>();
    try {
      long sweepDue = start + REFRESH.toNanos();
      for (int step = 0; step < 600; step++) {
        long move =
            gaps && random.nextInt(10) == 0
                ? random.nextInt(1_500_000_000)
                : random.nextInt(30_000_000);
        while (move > 0) {
          long until = Math.min(move, sweepDue - clock.peek());
          clock.advance(until);
          move -= until;
          if (clock.peek() - sweepDue >= 0) {
            leased.forEach(s -> s.leases().sweep());
            sweepDue += REFRESH.toNanos();
          }
        }
        int node = random.nextInt(NODES);
        int burst = 1 + random.nextInt(20);
        long[] counts =
            tally.computeIfAbsent((clock.peek() - start) / windowNanos, w -> new long[3]);
        for (int i = 0; i < burst; i++) {
          Decision e = exact.get(node).decide(policy, "hot", 1);
          Decision l = leased.get(node).decide(policy, "hot", 1);
          assertThat(e.isVerified()).isTrue();
          assertThat(l.isVerified()).as("decided with Redis, not a fallback").isTrue();
          counts[0] += e.isAllowed() ? 1 : 0;
          counts[1] += l.isAllowed() ? 1 : 0;
          counts[2]++;
          if (!l.isAllowed()) {
            assertThat(l.retryAfterNanos()).as("a rejection says when to retry").isPositive();
          }
        }
      }
    } finally {
      exact.forEach(RedisStore::close);
      leased.forEach(RedisStore::close);
    }
    return new Tally(tally);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 42, 2026})
  void aTokenBucketInLeaseModeAdmitsNoMoreThanExactModeAndAtMostNodesTimesASliceLess(
      long seed, RedisServer server) {
    // Given a bucket of 50 that refills at 100/s, which the schedule keeps under pressure
    Policy policy =
        Policy.tokenBucket("lease-tb", Limit.bucket(100, Duration.ofSeconds(1), 50))
            .withFailureMode(FailureMode.FAIL_CLOSED);

    // When the same schedule runs in exact mode and in lease mode
    Tally tally = replay(server, policy, seed, Long.MAX_VALUE, false);

    // Then lease mode never admits more, and at most what four nodes can hold less
    assertThat(tally.leased()).isLessThanOrEqualTo(tally.exact());
    assertThat(tally.leased()).isGreaterThanOrEqualTo(tally.exact() - NODES * HELD);
    assertThat(tally.exact()).as("the schedule reaches the limit").isLessThan(tally.requests());
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 42, 2026})
  void aTokenBucketInLeaseModeNeverAdmitsMoreThanExactModeWhenDemandPauses(
      long seed, RedisServer server) {
    // Given a bucket of 50 that refills at 100/s, and a schedule that pauses up to 1.5 s one step
    // in ten, so that the bucket refills and idle leases go back
    Policy policy =
        Policy.tokenBucket("lease-tb", Limit.bucket(100, Duration.ofSeconds(1), 50))
            .withFailureMode(FailureMode.FAIL_CLOSED);

    // When the same schedule runs in exact mode and in lease mode
    Tally tally = replay(server, policy, seed, Long.MAX_VALUE, true);

    // Then lease mode never admits more. (Each pause may cost it up to what the nodes had spent
    // since they last asked Redis, which counts as held until their leases go back:
    // docs/lease-mode.md says so; here it is bounded only by the number of pauses.)
    assertThat(tally.leased()).isLessThanOrEqualTo(tally.exact());
    assertThat(tally.leased()).isGreaterThan(tally.exact() * 9 / 10);
  }

  @ParameterizedTest(name = "seed {0}, gaps {1}")
  @CsvSource({"1, false", "2, false", "1, true", "2, true", "3, true", "42, true"})
  void aFixedWindowInLeaseModeAdmitsNoMoreThanExactModeInAnyWindow(
      long seed, boolean gaps, RedisServer server) {
    // Given a window of 100 per second
    Policy policy =
        Policy.fixedWindow("lease-fw", Limit.of(100, Duration.ofSeconds(1)))
            .withFailureMode(FailureMode.FAIL_CLOSED);

    // When the same schedule runs in exact mode and in lease mode
    Tally tally = replay(server, policy, seed, Duration.ofSeconds(1).toNanos(), gaps);

    // Then in every window lease mode admits no more, and at most what four nodes hold less.
    // (Windows are aligned to the stores' common origin, as the tally is.)
    tally
        .perWindow()
        .forEach(
            (window, counts) -> {
              assertThat(counts[1]).as("window %d", window).isLessThanOrEqualTo(counts[0]);
              assertThat(counts[1]).as("window %d", window).isLessThanOrEqualTo(100);
              assertThat(counts[1])
                  .as("window %d", window)
                  .isGreaterThanOrEqualTo(counts[0] - NODES * HELD);
            });
    assertThat(tally.perWindow()).hasSizeGreaterThan(5);
  }

  @Test
  void aSliceHeldWhileTheBucketRefillsMakesNoRoomBeyondTheBurstWhenItIsSpent(RedisServer server) {
    // Given a bucket of 10 that refills one permit every 100 ms, in exact mode and in lease mode,
    // where one node took 2 permits and holds a slice of the rest
    ManualClock clock = ManualClock.random(17);
    String run = UUID.randomUUID().toString();
    Policy policy = Policy.tokenBucket("lease-held", Limit.bucket(10, Duration.ofSeconds(1), 10));
    RedisStore exact = stores(server, clock, "exact:" + run + ":", null).get(0);
    RedisStore leased = stores(server, clock, "lease:" + run + ":", policy.name()).get(0);
    try {
      int[] admitted = new int[2];
      for (int i = 0; i < 2; i++) {
        admitted[0] += exact.decide(policy, "hot", 1).isAllowed() ? 1 : 0;
        admitted[1] += leased.decide(policy, "hot", 1).isAllowed() ? 1 : 0;
      }

      // When 900 ms pass (the bucket would refill to full; the slice is still live) and then a
      // burst of 20 comes
      clock.advance(Duration.ofMillis(900));
      for (int i = 0; i < 20; i++) {
        admitted[0] += exact.decide(policy, "hot", 1).isAllowed() ? 1 : 0;
        admitted[1] += leased.decide(policy, "hot", 1).isAllowed() ? 1 : 0;
      }

      // Then exact mode admits the 2 and a full bucket; lease mode no more, although the slice it
      // held all along is spent in the burst and Redis is asked again after it
      assertThat(admitted[0]).isEqualTo(12);
      assertThat(admitted[1]).isBetween(12 - (int) HELD, 12);
    } finally {
      exact.close();
      leased.close();
    }
  }

  @Test
  void thirtyTwoThreadsOnFourLeasedNodesAdmitNoMoreThanTheLimitAndAccountForEveryPermit(
      RedisServer server) throws Exception {
    // Given four nodes with their background fetchers and sweepers, on server time, sharing a
    // bucket of 2000 that refills one permit a day
    String prefix = "lease-threads:" + UUID.randomUUID() + ":";
    Policy policy =
        Policy.tokenBucket("lease-threads", Limit.bucket(1, Duration.ofDays(1), 2000))
            .withFailureMode(FailureMode.FAIL_CLOSED);
    List<RedisStore> nodes = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      nodes.add(
          RedisStore.builder()
              .url(server.url())
              .keyPrefix(prefix)
              .decisionTimeout(Duration.ofSeconds(2))
              .socketTimeout(Duration.ofSeconds(2))
              .lease(policy.name(), REFRESH, Duration.ofSeconds(30), MAX_SLICE, LOW_WATER)
              .build());
    }
    ExecutorService threads = Executors.newFixedThreadPool(NODES * 8);
    long admitted = 0;
    try {
      // When 32 threads race 100 requests each for the 2000 permits
      CountDownLatch start = new CountDownLatch(1);
      List<Future<long[]>> results = new ArrayList<>();
      for (RedisStore node : nodes) {
        for (int t = 0; t < 8; t++) {
          results.add(
              threads.submit(
                  () -> {
                    start.await();
                    long[] counts = new long[2];
                    for (int i = 0; i < 100; i++) {
                      Decision d = node.decide(policy, "hot", 1);
                      counts[0] += d.isAllowed() ? 1 : 0;
                      counts[1] += d.isVerified() ? 0 : 1;
                    }
                    return counts;
                  }));
        }
      }
      start.countDown();
      long unverified = 0;
      for (Future<long[]> result : results) {
        long[] counts = result.get(60, TimeUnit.SECONDS);
        admitted += counts[0];
        unverified += counts[1];
      }

      // Then no more than the limit is admitted, every decision by Redis's word, and at most what
      // the four nodes still hold less
      assertThat(unverified).isZero();
      assertThat(admitted).isBetween(2000 - NODES * HELD, 2000L);
    } finally {
      threads.shutdownNow();
      nodes.forEach(RedisStore::close);
    }

    // And once they closed, exact mode finds exactly what they did not admit: every permit
    // granted was either spent or given back
    RedisStore exact = RedisStore.builder().url(server.url()).keyPrefix(prefix).build();
    try {
      Decision d = exact.decide(policy, "hot", 1);
      assertThat(d.isAllowed() ? d.remaining() + 1 : 0).isEqualTo(2000 - admitted);
    } finally {
      exact.close();
    }
  }

  @Test
  void slicesGoBackWhenTheStoresClose(RedisServer server) {
    // Given a bucket of 1000 that does not refill, and four nodes that each spent 10 permits
    ManualClock clock = ManualClock.random(7);
    String prefix = "lease-close:" + UUID.randomUUID() + ":";
    Policy policy = Policy.tokenBucket("lease-close", Limit.bucket(1, Duration.ofDays(1), 1000));
    List<RedisStore> leased = stores(server, clock, prefix, policy.name());
    for (RedisStore store : leased) {
      for (int i = 0; i < 10; i++) {
        assertThat(store.decide(policy, "hot", 1).isAllowed()).isTrue();
      }
    }
    String leases = leaseKey(leased.get(0), policy);
    assertThat(hash(server, leases)).as("every node holds a lease").hasSize(NODES);
    long held = hash(server, leases).values().stream().mapToLong(v -> v[0]).sum();
    assertThat(held).as("what the nodes hold beyond what they spent").isPositive();

    // When they close
    leased.forEach(RedisStore::close);

    // Then no lease is left, and exact mode finds every permit they did not spend
    assertThat(hash(server, leases)).isEmpty();
    RedisStore exact = stores(server, clock, prefix, null).get(0);
    try {
      int admitted = 0;
      for (int i = 0; i < 1000; i++) {
        admitted += exact.decide(policy, "hot", 1).isAllowed() ? 1 : 0;
      }
      assertThat(admitted).isEqualTo(1000 - NODES * 10);
    } finally {
      exact.close();
    }
  }

  @Test
  void aLeaseNoDecisionUsesGoesBackAtTheNextSweepButOne(RedisServer server) {
    // Given a node that spent 3 permits of a window of 100 and then fell silent
    ManualClock clock = ManualClock.random(11);
    String prefix = "lease-idle:" + UUID.randomUUID() + ":";
    Policy policy = Policy.fixedWindow("lease-idle", Limit.of(100, Duration.ofDays(1)));
    List<RedisStore> leased = stores(server, clock, prefix, policy.name());
    RedisStore exact = stores(server, clock, prefix, null).get(0);
    try {
      for (int i = 0; i < 3; i++) {
        assertThat(leased.get(0).decide(policy, "hot", 1).isAllowed()).isTrue();
      }
      String leases = leaseKey(leased.get(0), policy);
      assertThat(hash(server, leases)).hasSize(1);

      // When two sweeps pass (the first finds it used since the last, the second finds it not)
      leased.get(0).leases().sweep();
      assertThat(hash(server, leases)).hasSize(1);
      leased.get(0).leases().sweep();

      // Then its lease ended and what it did not spend went back
      assertThat(hash(server, leases)).isEmpty();
      assertThat(exact.decide(policy, "hot", 1).remaining()).isEqualTo(100 - 3 - 1);
    } finally {
      exact.close();
      leased.forEach(RedisStore::close);
    }
  }

  @Test
  void anExhaustedLimitRejectsWithRedissRetryAfterAndAsksRedisOnceUntilThen(RedisServer server) {
    // Given a bucket of 10 that refills one permit every 100 ms, drained by one node
    ManualClock clock = ManualClock.random(5);
    String prefix = "lease-retry:" + UUID.randomUUID() + ":";
    Policy policy = Policy.tokenBucket("lease-retry", Limit.bucket(10, Duration.ofSeconds(1), 10));
    RedisStore node = stores(server, clock, prefix, policy.name()).get(0);
    try {
      int admitted = 0;
      for (int i = 0; i < 20; i++) {
        admitted += node.decide(policy, "hot", 1).isAllowed() ? 1 : 0;
      }
      assertThat(admitted).isEqualTo(10);
      long calls = scriptCalls(server);

      // When it asks again, 30 ms later
      clock.advance(Duration.ofMillis(30));
      Decision rejected = node.decide(policy, "hot", 1);
      Decision again = node.decide(policy, "hot", 1);

      // Then Redis's word stands: the next permit comes 100 ms after the last was taken, and no
      // script runs until then
      assertThat(rejected.isAllowed()).isFalse();
      assertThat(rejected.retryAfter().orElseThrow()).isEqualTo(Duration.ofMillis(70));
      assertThat(again.retryAfter().orElseThrow()).isEqualTo(Duration.ofMillis(70));
      assertThat(scriptCalls(server)).isEqualTo(calls);

      // And at that time, the permit is there
      clock.advance(Duration.ofMillis(70));
      assertThat(node.decide(policy, "hot", 1).isAllowed()).isTrue();
    } finally {
      node.close();
    }
  }

  @Test
  void anOutageFallsBackToThePolicysFailureModeOnceTheSliceIsSpent() {
    try (RedisServer own = RedisServer.start("lease-outage")) {
      // Given a node holding 4 permits of a slice of 5 of a fail-closed policy
      ManualClock clock = ManualClock.random(3);
      Policy policy =
          Policy.tokenBucket("lease-outage", Limit.bucket(1, Duration.ofDays(1), 1000))
              .withFailureMode(FailureMode.FAIL_CLOSED);
      RedisStore node =
          RedisStore.builder()
              .url(own.url())
              .callerClock(clock)
              .decisionTimeout(Duration.ofMillis(200))
              .lease(policy.name(), REFRESH, TTL, 5, 0)
              .leaseInline()
              .build();
      try {
        // (the first grant is the one permit asked for; the second, with no time passed, a
        // whole slice)
        assertThat(node.decide(policy, "hot", 1).isAllowed()).isTrue();
        assertThat(node.decide(policy, "hot", 1).isAllowed()).isTrue();

        // When Redis dies
        own.kill();

        // Then the slice is spent, and after it the failure mode decides
        List<Decision> decisions = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          decisions.add(node.decide(policy, "hot", 1));
        }
        assertThat(decisions.subList(0, 4)).allMatch(d -> d.isAllowed() && d.isVerified());
        assertThat(decisions.subList(4, 6))
            .allMatch(d -> d.outcome() == Decision.Outcome.UNAVAILABLE);
      } finally {
        node.close();
      }
    }
  }

  static String leaseKey(RedisStore store, Policy policy) {
    return leaseKeyOf(store, policy, "hot");
  }

  /** The hash of the leases of {@code key} under a policy of one limit. */
  static String leaseKeyOf(RedisStore store, Policy policy, String key) {
    return new CompiledPolicy(policy, new KeyScheme(store.keyPrefix())).leaseKeys(key).get(1);
  }

  /** The leases in {@code key}: node id -> {held, expiry}. */
  static Map<String, long[]> hash(RedisServer server, String key) {
    Object reply = server.call("HGETALL", key);
    Map<String, long[]> leases = new TreeMap<>();
    List<?> values = (List<?>) reply;
    for (int i = 0; i < values.size(); i += 2) {
      String[] parts = values.get(i + 1).toString().split(" ");
      leases.put(
          values.get(i).toString(),
          new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])});
    }
    return leases;
  }

  private static long scriptCalls(RedisServer server) {
    return server.commandStats().entrySet().stream()
        .filter(e -> e.getKey().startsWith("eval"))
        .mapToLong(e -> e.getValue().calls())
        .sum();
  }
}
