package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.LatencyProxy;
import io.github.limiter.tck.redis.RedisServer;
import io.github.limiter.tck.redis.RegionTraffic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A global policy on real time (docs/multi-region.md): three regions of two nodes, each region on
 * its own redis-server, and the global budget on a fourth, every region reaching it through a
 * {@link LatencyProxy} of 130-170 ms round trip (150 ms with jitter). Decisions go to the region's
 * Redis only. Twice the limit is offered, spread over the regions, then all in one region, then
 * with one region cut off from the global Redis for 6 s (the 60 s, scaled down to keep CI
 * well under a minute: the cut-off region's lease ends after 1 s, so the state is the same from
 * then on).
 */
class RegionLatencyIT {

  static final int REGIONS = 3;
  static final int NODES = 2;
  static final long RATE = 2000;
  static final long BURST = 2000;
  static final long SECOND = 1_000_000_000L;

  static RedisServer global;
  static final List<RedisServer> regional = new ArrayList<>();
  static final List<LatencyProxy> links = new ArrayList<>();

  @BeforeAll
  static void start() {
    global = RedisServer.start("region-it-global");
    for (int r = 0; r < REGIONS; r++) {
      regional.add(RedisServer.start("region-it-" + r));
      links.add(
          LatencyProxy.start(global.port(), Duration.ofMillis(130), Duration.ofMillis(170), r));
    }
  }

  @AfterAll
  static void stop() {
    links.forEach(LatencyProxy::close);
    regional.forEach(RedisServer::close);
    if (global != null) {
      global.close();
    }
  }

  /**
   * The limit, failing closed: with a region's own Redis down, a global policy must not fall back
   * to counting in memory.
   */
  static Policy bucket(String name) {
    return new Policy(
        name,
        Algorithm.TOKEN_BUCKET,
        List.of(Limit.bucket(RATE, Duration.ofSeconds(1), BURST)),
        FailureMode.FAIL_CLOSED);
  }

  static RedisStore[][] stores(Policy policy, boolean globalPolicy) {
    String prefix = "region-it:" + UUID.randomUUID() + ":";
    RedisStore[][] stores = new RedisStore[REGIONS][NODES];
    for (int r = 0; r < REGIONS; r++) {
      for (int n = 0; n < NODES; n++) {
        RedisStoreBuilder b =
            RedisStore.builder()
                .url(regional.get(r).url())
                .keyPrefix(prefix)
                .lease(
                    policy.name(),
                    Duration.ofMillis(100),
                    Duration.ofSeconds(1),
                    Integer.MAX_VALUE,
                    0.25);
        if (globalPolicy) {
          b.region("r" + r, links.get(r).url(), Set.of(policy.name()))
              .globalTimeout(Duration.ofMillis(500));
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

  static void await(RegionTraffic traffic, long at) throws InterruptedException {
    long wait = at - traffic.now();
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
    }
  }

  @Test
  void oneLimitAcrossThreeRegionsAt150MsRoundTrip() throws Exception {
    Policy policy = bucket("global-it");
    RedisStore[][] stores = stores(policy, true);
    RegionTraffic traffic = new RegionTraffic(stores, policy, "k", 40);
    long steady;
    long moved;
    long cut;
    long restored;
    long end;
    try {
      double even = 2.0 * RATE / REGIONS;
      traffic.rates(even, even, even);
      traffic.start();
      // steady state after a 3 s warm-up, for 5 s
      steady = 3 * SECOND;
      await(traffic, steady + 5 * SECOND);
      // all traffic moves to region 0
      moved = traffic.now();
      traffic.rates(2.0 * RATE, 0, 0);
      await(traffic, moved + 3 * SECOND);
      traffic.rates(even, even, even);
      // region 2 is cut off from the global Redis for 6 s
      await(traffic, moved + 5 * SECOND);
      cut = traffic.now();
      links.get(2).cut();
      await(traffic, cut + 6 * SECOND);
      links.get(2).restore();
      restored = traffic.now();
      await(traffic, restored + 3 * SECOND);
      end = traffic.now();
    } finally {
      traffic.close();
      close(stores);
    }
    long tick = RegionTraffic.BUCKET_NANOS;

    // Admitted ≤ the limit in every interval: in any 1 s (to the 10 ms bucket), at most what exact
    // mode admits, burst + rate × (1 s + a bucket)
    long most = traffic.mostAdmittedIn(SECOND, 0, end);
    long exactMost = BURST + RATE * (SECOND + tick) / SECOND;
    // and over the whole run, burst + rate × its length
    long all = traffic.admitted(0, end);
    long exactAll = BURST + RATE * (end + tick) / SECOND;

    // Utilisation: the goals (≥ 95%) are measured by limiter-bench/region.sh; on a shared
    // CI
    // machine the test checks that the budget is used and follows the demand, not a figure.
    long steadyAdmitted = traffic.admitted(steady, steady + 5 * SECOND);
    // region 0 within 2 s of the move (the third second)
    long afterMove = traffic.admitted(0, moved + 2 * SECOND, moved + 3 * SECOND);
    // the others keep what the cut-off region leaves, once its lease has ended (1 s)
    long cutFrom = cut + 2 * SECOND;
    long cutTo = cut + 6 * SECOND;
    long cutOff = traffic.admitted(2, cutFrom, cutTo);
    long others = traffic.admitted(0, cutFrom, cutTo) + traffic.admitted(1, cutFrom, cutTo);
    long left = RATE * (cutTo - cutFrom) / SECOND - cutOff;

    System.out.printf(
        "RegionLatencyIT: most in 1 s %d (exact %d); all %d (exact %d); steady %d of %d (%.1f%%);"
            + " region 0 in the 3rd s after the move %d of %d (%.1f%%); cut: region 2 %d, others"
            + " %d of %d left (%.1f%%); p99 %.3f ms%n",
        most,
        exactMost,
        all,
        exactAll,
        steadyAdmitted,
        5 * RATE,
        100.0 * steadyAdmitted / (5 * RATE),
        afterMove,
        RATE,
        100.0 * afterMove / RATE,
        cutOff,
        others,
        left,
        100.0 * others / left,
        traffic.latencyQuantile(0.99) / 1e6);

    assertThat(most).as("most admitted in any 1 s").isLessThanOrEqualTo(exactMost);
    assertThat(all).as("admitted over the run").isLessThanOrEqualTo(exactAll);
    assertThat(steadyAdmitted).as("steady state").isGreaterThanOrEqualTo(80 * 5 * RATE / 100);
    assertThat(afterMove)
        .as("region 0, 2-3 s after the move")
        .isGreaterThanOrEqualTo(80 * RATE / 100);
    assertThat(cutOff).as("the cut-off region after its lease ended").isZero();
    assertThat(others).as("the others during the cut").isGreaterThanOrEqualTo(80 * left / 100);
  }

  @Test
  void aGlobalPolicyNeverWaitsForTheInterRegionLink() throws Exception {
    Policy global = bucket("p99-global");
    Policy local = bucket("p99-local");
    long[] p99 = new long[2];
    int i = 0;
    for (Policy policy : List.of(local, global)) {
      RedisStore[][] stores = stores(policy, policy == global);
      RegionTraffic traffic = new RegionTraffic(stores, policy, "k", 10);
      try {
        double even = 2.0 * RATE / REGIONS;
        traffic.rates(even, even, even);
        traffic.start();
        await(traffic, 4 * SECOND);
      } finally {
        traffic.close();
        close(stores);
      }
      p99[i++] = traffic.latencyQuantile(0.99);
    }
    System.out.printf(
        "RegionLatencyIT: p99 region-local lease %.3f ms, global %.3f ms%n",
        p99[0] / 1e6, p99[1] / 1e6);
    // No decision crosses the 130-170 ms link: p99 stays far below half its shortest round trip
    // (the "within 1 ms of a region-local policy" is measured by limiter-bench/region.sh).
    assertThat(p99[1]).isLessThan(65_000_000L);
  }
}
