package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Global policies (docs/multi-region.md) on four real redis-servers, a global one and three
 * regional ones, two nodes per region, under caller time (one manual clock) with grants and refills
 * on the deciding thread, so that every schedule replays exactly: whatever the schedule, the
 * regions together never admit more than one exact policy would, and the regions that ask get the
 * budget.
 */
class RegionPoolsTest {

  static final int REGIONS = 3;
  static final int NODES = 2;
  static final Duration REFRESH = Duration.ofMillis(100);
  static final Duration TTL = Duration.ofSeconds(1);
  static final int MAX_SLICE = 50;

  static RedisServer global;
  static final List<RedisServer> regional = new ArrayList<>();

  @BeforeAll
  static void start() {
    global = RedisServer.start("region-global");
    for (int r = 0; r < REGIONS; r++) {
      regional.add(RedisServer.start("region-" + r));
    }
  }

  @AfterAll
  static void stop() {
    regional.forEach(RedisServer::close);
    if (global != null) {
      global.close();
    }
  }

  /** Two nodes in each of three regions: stores[region][node]. */
  static RedisStore[][] stores(ManualClock clock, Policy policy, String failure) {
    String prefix = "region:" + UUID.randomUUID() + ":";
    RedisStore[][] stores = new RedisStore[REGIONS][NODES];
    for (int r = 0; r < REGIONS; r++) {
      for (int n = 0; n < NODES; n++) {
        RedisStoreBuilder b =
            RedisStore.builder()
                .url(regional.get(r).url())
                .keyPrefix(prefix)
                .callerClock(clock)
                .decisionTimeout(Duration.ofSeconds(2))
                .socketTimeout(Duration.ofSeconds(2))
                .lease(policy.name(), REFRESH, TTL, MAX_SLICE, 0.25)
                .leaseInline()
                .region("r" + r, global.url(), Set.of(policy.name()));
        if (failure != null) {
          b.regionFailure(failure);
        }
        stores[r][n] = b.build();
      }
    }
    return stores;
  }

  static void close(RedisStore[][] stores) {
    for (RedisStore[] region : stores) {
      for (RedisStore store : region) {
        store.close();
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aTokenBucketAcrossRegionsNeverAdmitsMoreThanItsBurstPlusItsRefill(long seed) {
    // Given a global bucket of 100/s, burst 200, and two nodes in each of three regions
    Policy policy = Policy.tokenBucket("tb", Limit.bucket(100, Duration.ofSeconds(1), 200));
    ManualClock clock = ManualClock.random(seed);
    long start = clock.peek();
    RedisStore[][] stores = stores(clock, policy, null);
    Random random = new Random(seed);
    long admitted = 0;
    long requests = 0;
    try {
      // When random nodes take bursts, far more than the limit, for 20 s of the clock
      for (int step = 0; step < 2000; step++) {
        clock.advance(random.nextInt(20_000_000));
        int r = random.nextInt(REGIONS);
        int n = random.nextInt(NODES);
        for (int i = 1 + random.nextInt(5); i > 0; i--) {
          requests++;
          if (stores[r][n].decide(policy, "k", 1).isAllowed()) {
            admitted++;
          }
          // Then at every instant, no more than exact mode: burst + rate × elapsed
          long elapsed = clock.peek() - start;
          assertThat(admitted).isLessThanOrEqualTo(200 + elapsed * 100 / 1_000_000_000L);
        }
      }
      long elapsed = clock.peek() - start;
      long exact = Math.min(requests, 200 + elapsed * 100 / 1_000_000_000L);
      // and it admits most of what exact mode would (the bound allows much less; this is typical)
      assertThat(admitted).as("admitted of %d exact", exact).isGreaterThan(exact * 8 / 10);
    } finally {
      close(stores);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {4, 5})
  void aFixedWindowAcrossRegionsNeverAdmitsMoreThanItsCountInAnyWindow(long seed) {
    // Given a global window of 300 a second
    Policy policy = Policy.fixedWindow("fw", Limit.of(300, Duration.ofSeconds(1)));
    ManualClock clock = ManualClock.random(seed);
    long start = clock.peek();
    RedisStore[][] stores = stores(clock, policy, null);
    Random random = new Random(seed);
    Map<Long, Long> perWindow = new TreeMap<>();
    try {
      // When random nodes take bursts for 20 s of the clock
      for (int step = 0; step < 3000; step++) {
        clock.advance(random.nextInt(15_000_000));
        int r = random.nextInt(REGIONS);
        int n = random.nextInt(NODES);
        for (int i = 1 + random.nextInt(5); i > 0; i--) {
          if (stores[r][n].decide(policy, "k", 1).isAllowed()) {
            // the window of the scripts' time: caller time in µs since the stores were built,
            // which is the same instant of this clock for all of them
            long micros = Math.floorDiv(clock.peek() - start, 1_000L);
            perWindow.merge(Math.floorDiv(micros, 1_000_000L), 1L, Long::sum);
          }
        }
      }
      // Then no window admits more than 300, and the busy windows most of it
      assertThat(perWindow.values())
          .allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(300));
      long full = perWindow.values().stream().filter(count -> count >= 270).count();
      assertThat(full)
          .as("windows with 90%% of 300 of %s", perWindow)
          .isGreaterThan(perWindow.size() / 2);
    } finally {
      close(stores);
    }
  }

  @Test
  void trafficThatMovesToOneRegionGetsTheBudgetWithinAFewRefills() {
    // Given a bucket of 1000/s, burst 100, with every region busy at first
    Policy policy = Policy.tokenBucket("move", Limit.bucket(1000, Duration.ofSeconds(1), 100));
    ManualClock clock = ManualClock.random(7);
    RedisStore[][] stores = stores(clock, policy, null);
    try {
      for (int ms = 0; ms < 2000; ms++) {
        clock.advance(1_000_000);
        for (int r = 0; r < REGIONS; r++) {
          stores[r][ms % NODES].decide(policy, "k", 1);
        }
      }
      // When all traffic moves to region 0, at 2000/s (twice the limit)
      long admitted = 0;
      long lastSecond = 0;
      for (int ms = 0; ms < 3000; ms++) {
        clock.advance(500_000);
        boolean a = stores[0][ms % NODES].decide(policy, "k", 1).isAllowed();
        clock.advance(500_000);
        boolean b = stores[0][(ms + 1) % NODES].decide(policy, "k", 1).isAllowed();
        long got = (a ? 1 : 0) + (b ? 1 : 0);
        admitted += got;
        if (ms >= 2000) {
          lastSecond += got;
        }
      }
      // Then within 2 s region 0 gets at least 95% of the limit
      assertThat(lastSecond).as("admitted in the third second").isGreaterThanOrEqualTo(950);
      assertThat(admitted).isLessThanOrEqualTo(100 + 3000);
    } finally {
      close(stores);
    }
  }

  @Test
  void aRegionCutOffSpendsWhatItHoldsThenRefusesAndTheOthersKeepTheRest() {
    Policy policy = Policy.tokenBucket("cut", Limit.bucket(300, Duration.ofSeconds(1), 60));
    ManualClock clock = ManualClock.random(11);
    RedisStore[][] stores = stores(clock, policy, null);
    try {
      // Given all three regions busy
      for (int ms = 0; ms < 1000; ms++) {
        clock.advance(1_000_000);
        for (int r = 0; r < REGIONS; r++) {
          stores[r][ms % NODES].decide(policy, "k", 1);
        }
      }
      // When region 2 loses the global Redis (its global connection is closed)
      for (RedisStore store : stores[2]) {
        store.leases().regions.cutForTest();
      }
      long[] admitted = new long[REGIONS];
      for (int ms = 0; ms < 3000; ms++) {
        clock.advance(1_000_000);
        for (int r = 0; r < REGIONS; r++) {
          if (stores[r][ms % NODES].decide(policy, "k", 1).isAllowed()) {
            admitted[r]++;
          }
        }
      }
      // Then region 2 spends at most what it held (a slice per node and its pool), then refuses
      assertThat(admitted[2]).isLessThanOrEqualTo(60);
      // and the other two keep at least 95% of the limit between them after the cut-off region's
      // lease ends (1 s TTL)
      assertThat(admitted[0] + admitted[1]).isGreaterThanOrEqualTo(95L * 300 * 2 / 100);
      assertThat(admitted[0] + admitted[1] + admitted[2]).isLessThanOrEqualTo(60 + 3 * 300);
    } finally {
      close(stores);
    }
  }

  @Test
  void aLocalAllowanceIsWhatACutOffRegionAdmitsOnItsOwn() {
    Policy policy = Policy.tokenBucket("allow", Limit.bucket(300, Duration.ofSeconds(1), 60));
    ManualClock clock = ManualClock.random(13);
    RedisStore[][] stores = stores(clock, policy, "allow 10/s");
    try {
      for (RedisStore store : stores[1]) {
        store.leases().regions.cutForTest();
      }
      long admitted = 0;
      for (int ms = 0; ms < 5000; ms++) {
        clock.advance(1_000_000);
        if (stores[1][ms % NODES].decide(policy, "k", 1).isAllowed()) {
          admitted++;
        }
      }
      // 10 a second for 5 s, no more, and some
      assertThat(admitted).isLessThanOrEqualTo(60).isGreaterThanOrEqualTo(30);
    } finally {
      close(stores);
    }
  }

  @Test
  void aGlobalPolicyDecidesWithoutTheGlobalRedisOnTheRequestPath() {
    Policy policy = Policy.tokenBucket("path", Limit.bucket(1000, Duration.ofSeconds(1), 1000));
    ManualClock clock = ManualClock.random(17);
    RedisStore[][] stores = stores(clock, policy, null);
    try {
      // The region's first request finds its pool empty: refused, with a short Retry-After, while
      // the first refill runs
      Decision first = stores[0][0].decide(policy, "k", 1);
      assertThat(first.isAllowed()).isFalse();
      assertThat(first.retryAfter())
          .get()
          .satisfies(d -> assertThat(d).isPositive().isLessThan(Duration.ofMillis(10)));
      clock.advance(first.retryAfter().orElseThrow().toNanos());
      assertThat(stores[0][0].decide(policy, "k", 1).isAllowed()).isTrue();
      long refills = stores[0][0].leases().regions.counts.refills.get();
      for (int i = 0; i < 20; i++) {
        clock.advance(1_000_000);
        assertThat(stores[0][0].decide(policy, "k", 1).isAllowed()).isTrue();
      }
      // a slice is spent in memory: no refill for these
      assertThat(stores[0][0].leases().regions.counts.refills.get()).isEqualTo(refills);
      assertThat(refills).isPositive();
    } finally {
      close(stores);
    }
  }
}
