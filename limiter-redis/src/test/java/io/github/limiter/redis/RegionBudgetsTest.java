package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.metrics.RegionBudgets;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a region holds of a global policy's budget, as the store shows it ({@link RegionBudgets}:
 * held, leased, returned, stranded), and its pool going back to the global budget when the region's
 * last node closes; on real redis-servers (a global one, two regional ones) under one manual clock,
 * with grants and refills on the deciding thread.
 */
class RegionBudgetsTest {

  static RedisServer global;
  static RedisServer eastRedis;
  static RedisServer westRedis;

  @BeforeAll
  static void start() {
    global = RedisServer.start("budgets-global");
    eastRedis = RedisServer.start("budgets-east");
    westRedis = RedisServer.start("budgets-west");
  }

  @AfterAll
  static void stop() {
    Stream.of(eastRedis, westRedis, global).filter(s -> s != null).forEach(RedisServer::close);
  }

  static Stream<Policy> policies() {
    return Stream.of(
        Policy.tokenBucket("tb", Limit.bucket(1, Duration.ofSeconds(1), 1000)),
        Policy.fixedWindow("fw", Limit.of(1000, Duration.ofHours(1))));
  }

  /** Nodes and a reader of the global budget, built at one instant of {@code clock}. */
  record Deployment(String prefix, RedisStore[] east, RedisStore west, RedisStore reader) {

    static Deployment of(ManualClock clock, Policy policy, int eastNodes) {
      String prefix = "budgets:" + UUID.randomUUID() + ":";
      RedisStore[] nodes = new RedisStore[eastNodes];
      for (int n = 0; n < eastNodes; n++) {
        nodes[n] = node(clock, policy, prefix, eastRedis, "east");
      }
      RedisStore reader =
          RedisStore.builder().url(global.url()).keyPrefix(prefix).callerClock(clock).build();
      return new Deployment(prefix, nodes, node(clock, policy, prefix, westRedis, "west"), reader);
    }

    static RedisStore node(
        ManualClock clock, Policy policy, String prefix, RedisServer server, String region) {
      return RedisStore.builder()
          .url(server.url())
          .keyPrefix(prefix)
          .callerClock(clock)
          .decisionTimeout(Duration.ofSeconds(2))
          .socketTimeout(Duration.ofSeconds(2))
          .lease(policy.name(), Duration.ofMillis(100), Duration.ofSeconds(1), 50, 0.25)
          .leaseInline()
          .region(region, global.url(), Set.of(policy.name()))
          .build();
    }

    /** What the global budget has left for the key now, charging nothing. */
    long globalLeft(Policy policy) {
      return reader.peek(policy, "k").remaining();
    }

    /** The east pool's count as stored in the east Redis. */
    long eastPool(Policy policy) {
      List<String> keys =
          RegionPools.regionKeys(new CompiledPolicy(policy, new KeyScheme(prefix)).leaseKeys("k"));
      Object count = eastRedis.call("HGET", keys.get(0), "count");
      return count == null ? 0 : Long.parseLong(count.toString());
    }

    void close() {
      for (RedisStore store : east) {
        store.close();
      }
      west.close();
      reader.close();
    }
  }

  static RegionBudgets.Share share(RedisStore store, Policy policy) {
    return store.view(RegionBudgets.class).orElseThrow().share(policy.name()).orElseThrow();
  }

  /** Decides on each store every millisecond for {@code ms}; what each admitted. */
  static long[] traffic(ManualClock clock, Policy policy, int ms, RedisStore... stores) {
    long[] admitted = new long[stores.length];
    for (int i = 0; i < ms; i++) {
      for (int s = 0; s < stores.length; s++) {
        if (stores[s].decide(policy, "k", 1).isAllowed()) {
          admitted[s]++;
        }
      }
      clock.advance(1_000_000);
    }
    return admitted;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void theLastNodeOfARegionToCloseGivesItsPoolBackToTheGlobalBudget(Policy policy) {
    // Given two east nodes and a west one, all of which took requests
    ManualClock clock = ManualClock.random(3);
    Deployment d = Deployment.of(clock, policy, 2);
    try {
      long[] admitted = traffic(clock, policy, 30, d.east[0], d.east[1], d.west);
      assertThat(admitted[0]).isPositive();
      assertThat(admitted[1]).isPositive();
      long granted =
          d.east[0].leases().regions.counts.granted.get()
              + d.east[1].leases().regions.counts.granted.get();

      // When the first east node closes, the other one still leasing from the pool
      d.east[0].close();

      // Then the pool stays in the region
      assertThat(share(d.east[0], policy).returned()).isZero();
      long pool = d.eastPool(policy);
      assertThat(pool).isPositive();

      // When the last east node closes
      long before = d.globalLeft(policy);
      d.east[1].close();

      // Then what the region held and did not spend goes back to the global budget, all of it
      RegionBudgets.Share last = share(d.east[1], policy);
      assertThat(last.returned()).isEqualTo(granted - admitted[0] - admitted[1]).isPositive();
      assertThat(last.stranded()).isZero();
      assertThat(last.held()).isZero();
      assertThat(d.eastPool(policy)).isZero();
      assertThat(d.globalLeft(policy)).isEqualTo(before + last.returned());
    } finally {
      d.close();
    }
  }

  @Test
  void aPoolThatCannotReachTheGlobalRedisAtCloseIsStranded() {
    // Given one east node that holds a pool
    Policy policy = Policy.tokenBucket("cut", Limit.bucket(1, Duration.ofSeconds(1), 1000));
    ManualClock clock = ManualClock.random(5);
    Deployment d = Deployment.of(clock, policy, 1);
    try {
      long admitted = traffic(clock, policy, 20, d.east[0])[0];
      long granted = d.east[0].leases().regions.counts.granted.get();
      long before = d.globalLeft(policy);

      // When it closes cut off from the global Redis
      d.east[0].leases().regions.cutForTest();
      d.east[0].close();

      // Then the pool is emptied, counted as stranded, and the global budget gets nothing back
      RegionBudgets.Share share = share(d.east[0], policy);
      assertThat(share.returned()).isZero();
      assertThat(share.stranded()).isEqualTo(granted - admitted).isPositive();
      assertThat(d.globalLeft(policy)).isEqualTo(before);
    } finally {
      d.close();
    }
  }

  @Test
  void heldIsThePoolsCountAndLeasedIsWhatTheNodeSpentOnceItsSliceIsBack() {
    // Given an east node that took requests
    Policy policy = Policy.tokenBucket("held", Limit.bucket(1, Duration.ofSeconds(1), 1000));
    ManualClock clock = ManualClock.random(7);
    Deployment d = Deployment.of(clock, policy, 1);
    try {
      long admitted = traffic(clock, policy, 25, d.east[0])[0];

      // Then it holds what the pool holds, and has leased at least what it admitted
      RegionBudgets.Share share = share(d.east[0], policy);
      assertThat(share.held()).isEqualTo(d.eastPool(policy)).isPositive();
      assertThat(share.leased()).isGreaterThanOrEqualTo(admitted);
      // and its last refill saw the global budget: one region active, the whole capacity its share
      assertThat(share.fairShare()).isEqualTo(1000);
      assertThat(share.granted()).isPositive();
      assertThat(share.globalRemaining()).isEqualTo(d.globalLeft(policy));
      assertThat(share.sinceRefill()).isPresent();

      // When its lease goes unused for two sweeps and retires, giving its slice back
      d.east[0].leases().sweep();
      d.east[0].leases().sweep();

      // Then what it leased is what it admitted
      assertThat(share(d.east[0], policy).leased()).isEqualTo(admitted);
    } finally {
      d.close();
    }
  }

  @Test
  void aPoolThatExpiresUnspentIsStrandedOnceWhenTheRegionRefillsAgain() {
    // Given an east node whose pool holds permits
    Policy policy = Policy.tokenBucket("expire", Limit.bucket(1, Duration.ofSeconds(1), 1000));
    ManualClock clock = ManualClock.random(9);
    Deployment d = Deployment.of(clock, policy, 1);
    try {
      traffic(clock, policy, 10, d.east[0]);
      long pool = d.eastPool(policy);
      assertThat(pool).isPositive();
      assertThat(share(d.east[0], policy).stranded()).isZero();

      // When the region goes quiet past the pool's end (the lease TTL, 1 s), then asks again
      clock.advance(Duration.ofSeconds(3).toNanos());
      traffic(clock, policy, 10, d.east[0]);

      // Then what the expired pool held is stranded, counted once
      assertThat(share(d.east[0], policy).stranded()).isEqualTo(pool);
      traffic(clock, policy, 10, d.east[0]);
      assertThat(share(d.east[0], policy).stranded()).isEqualTo(pool);
    } finally {
      d.close();
    }
  }

  @Test
  void aRollingRestartOfARegionStrandsNothing() {
    // Given two east nodes, in server time, whose pool and slices outlive the test (30 s)
    Policy policy = Policy.tokenBucket("rolling", Limit.bucket(10, Duration.ofSeconds(1), 1000));
    String prefix = "budgets:" + UUID.randomUUID() + ":";
    List<RedisStore> all = new ArrayList<>();
    Supplier<RedisStore> node =
        () -> {
          RedisStore store =
              RedisStore.builder()
                  .url(eastRedis.url())
                  .keyPrefix(prefix)
                  .lease(policy.name(), Duration.ofMillis(100), Duration.ofSeconds(30), 50, 0.25)
                  .leaseInline()
                  .region("east", global.url(), Set.of(policy.name()))
                  .build();
          all.add(store);
          return store;
        };
    long admitted = 0;
    try {
      RedisStore a = node.get();
      RedisStore b = node.get();
      admitted += admit(policy, 20, a, b);

      // When the nodes restart one after the other, each new one taking requests, and then the
      // region stops
      a.close();
      RedisStore a2 = node.get();
      admitted += admit(policy, 20, a2, b);
      b.close();
      RedisStore b2 = node.get();
      admitted += admit(policy, 20, a2, b2);
      a2.close();
      b2.close();

      // Then every permit the global budget granted the region was admitted or given back
      long granted = 0;
      long returned = 0;
      long stranded = 0;
      for (RedisStore store : all) {
        granted += store.leases().regions.counts.granted.get();
        returned += share(store, policy).returned();
        stranded += share(store, policy).stranded();
      }
      assertThat(stranded).isZero();
      assertThat(returned).isPositive();
      assertThat(admitted + returned).isEqualTo(granted);
      // by the last node to stop only: the others left the pool to the nodes still running
      assertThat(all.subList(0, 3))
          .allSatisfy(s -> assertThat(share(s, policy).returned()).isZero());
    } finally {
      all.forEach(RedisStore::close);
    }
  }

  /** Decides on {@code stores} in turn until each admitted {@code each} requests. */
  static long admit(Policy policy, int each, RedisStore... stores) {
    long admitted = 0;
    for (RedisStore store : stores) {
      int[] got = {0};
      Await.until(
          "requests admitted on a node",
          Duration.ofSeconds(10),
          () -> {
            if (store.decide(policy, "k", 1).isAllowed()) {
              got[0]++;
            }
            return got[0] >= each;
          });
      admitted += got[0];
    }
    return admitted;
  }
}
