package io.github.limiter.bench;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.metrics.RegionBudgets;
import io.github.limiter.redis.RedisStore;
import io.github.limiter.redis.RedisStoreBuilder;
import io.github.limiter.tck.redis.LatencyProxy;
import io.github.limiter.tck.redis.RedisServer;
import io.github.limiter.tck.redis.RegionTraffic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * One global policy across three regions (docs/multi-region.md), at full length: each region a
 * redis-server of its own with {@code --nodes} stores, the global budget on a fourth, and each
 * region's link to it through a latency proxy of {@code --rtt-min}..{@code --rtt-max} ms. Twice the
 * limit is offered, spread over the regions ({@code --steady} s), then all in region 0 ({@code
 * --move} s), then spread again with region 2 cut off from the global Redis for {@code --cut} s,
 * then restored. Then the same load on a region-local lease policy, for the latency to compare.
 *
 * <p>Prints one JSON line per measure: the most admitted in any 1 s against exact mode's bound, the
 * steady utilisation, region 0's utilisation per second after the move, the others' share of what
 * the cut-off region leaves per 10 s of the cut, and p50/p99/p999 decision latency, global and
 * local.
 *
 * <p>Usage: {@code RegionLoad [--rate 2000] [--nodes 2] [--steady 20] [--move 5] [--cut 60]
 * [--rtt-min 130] [--rtt-max 170]}; it only ever talks to 127.0.0.1.
 */
public final class RegionLoad {

  private static final long SECOND = 1_000_000_000L;
  private static final int REGIONS = 3;

  private RegionLoad() {}

  public static void main(String[] args) throws Exception {
    long rate = 2000;
    int nodes = 2;
    int steadySeconds = 20;
    int moveSeconds = 5;
    int cutSeconds = 60;
    int rttMin = 130;
    int rttMax = 170;
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--rate" -> rate = Long.parseLong(value);
        case "--nodes" -> nodes = Integer.parseInt(value);
        case "--steady" -> steadySeconds = Integer.parseInt(value);
        case "--move" -> moveSeconds = Integer.parseInt(value);
        case "--cut" -> cutSeconds = Integer.parseInt(value);
        case "--rtt-min" -> rttMin = Integer.parseInt(value);
        case "--rtt-max" -> rttMax = Integer.parseInt(value);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    RedisServer global = RedisServer.start("region-load-global");
    List<RedisServer> regional = new ArrayList<>();
    List<LatencyProxy> links = new ArrayList<>();
    try {
      for (int r = 0; r < REGIONS; r++) {
        regional.add(RedisServer.start("region-load-" + r));
        links.add(
            LatencyProxy.start(
                global.port(), Duration.ofMillis(rttMin), Duration.ofMillis(rttMax), r));
      }
      Policy policy = bucket("region-load", rate);
      RedisStore[][] stores = stores(policy, true, nodes, regional, links);
      int total = 5 + steadySeconds + moveSeconds + 5 + cutSeconds + 10;
      RegionTraffic traffic = new RegionTraffic(stores, policy, "k", total + 5);
      long steady = 5 * SECOND;
      long moved;
      long cut;
      long restored;
      long end;
      double even = 2.0 * rate / REGIONS;
      try {
        traffic.rates(even, even, even);
        traffic.start();
        await(traffic, steady + steadySeconds * SECOND);
        moved = traffic.now();
        traffic.rates(2.0 * rate, 0, 0);
        await(traffic, moved + moveSeconds * SECOND);
        traffic.rates(even, even, even);
        await(traffic, moved + (moveSeconds + 5) * SECOND);
        cut = traffic.now();
        links.get(2).cut();
        await(traffic, cut + cutSeconds * SECOND);
        links.get(2).restore();
        restored = traffic.now();
        await(traffic, restored + 10 * SECOND);
        end = traffic.now();
      } finally {
        traffic.close();
        close(stores);
      }
      // What each region's nodes show of the budget once all closed: the last gave the pool back.
      StringBuilder budgets = new StringBuilder();
      for (int r = 0; r < REGIONS; r++) {
        long[] sum = new long[3];
        for (RedisStore store : stores[r]) {
          RegionBudgets.Share share =
              store.view(RegionBudgets.class).orElseThrow().share(policy.name()).orElseThrow();
          sum[0] += share.leased();
          sum[1] += share.returned();
          sum[2] += share.stranded();
        }
        budgets.append(
            String.format(
                Locale.ROOT,
                "%s{\"region\":\"r%d\",\"leased\":%d,\"returned\":%d,\"stranded\":%d}",
                r == 0 ? "" : ",",
                r,
                sum[0],
                sum[1],
                sum[2]));
      }
      print("budget", "\"regions\":[%s]", budgets);
      long bucket = RegionTraffic.BUCKET_NANOS;
      long most = traffic.mostAdmittedIn(SECOND, 0, end);
      long exactMost = rate + rate * (SECOND + bucket) / SECOND;
      long all = traffic.admitted(0, end);
      long exactAll = rate + rate * (end + bucket) / SECOND;
      print(
          "bound",
          "\"mostIn1s\":%d,\"exactMostIn1s\":%d,\"admitted\":%d,\"exactAdmitted\":%d,\"held\":%b",
          most,
          exactMost,
          all,
          exactAll,
          most <= exactMost && all <= exactAll);
      long steadyAdmitted = traffic.admitted(steady, steady + steadySeconds * SECOND);
      print(
          "steady",
          "\"seconds\":%d,\"admitted\":%d,\"limit\":%d,\"utilisation\":%.4f",
          steadySeconds,
          steadyAdmitted,
          rate * steadySeconds,
          (double) steadyAdmitted / (rate * steadySeconds));
      StringBuilder perSecond = new StringBuilder();
      for (int s = 0; s < moveSeconds; s++) {
        long got = traffic.admitted(0, moved + s * SECOND, moved + (s + 1) * SECOND);
        perSecond
            .append(s == 0 ? "" : ",")
            .append(String.format(Locale.ROOT, "%.4f", (double) got / rate));
      }
      print("move", "\"region0UtilisationPerSecond\":[%s]", perSecond);
      StringBuilder cutShares = new StringBuilder();
      long cutOffAfterLease = 0;
      for (long from = cut; from + 10 * SECOND <= cut + cutSeconds * SECOND; from += 10 * SECOND) {
        long to = from + 10 * SECOND;
        long off = traffic.admitted(2, from, to);
        long others = traffic.admitted(0, from, to) + traffic.admitted(1, from, to);
        long left = rate * 10 - off;
        if (from > cut) {
          cutOffAfterLease += off;
        }
        cutShares
            .append(from == cut ? "" : ",")
            .append(String.format(Locale.ROOT, "%.4f", (double) others / left));
      }
      print(
          "cut",
          "\"seconds\":%d,\"othersShareOfWhatIsLeftPer10s\":[%s],\"cutOffAdmittedAfterFirst10s\":%d",
          cutSeconds,
          cutShares,
          cutOffAfterLease);
      long[] globalLatency = {
        traffic.latencyQuantile(0.5), traffic.latencyQuantile(0.99), traffic.latencyQuantile(0.999)
      };
      // The same load on a region-local lease policy: each region's limit on its own Redis.
      Policy local = bucket("region-load-local", rate);
      RedisStore[][] localStores = stores(local, false, nodes, regional, links);
      RegionTraffic localTraffic = new RegionTraffic(localStores, local, "k", 20);
      try {
        localTraffic.rates(even, even, even);
        localTraffic.start();
        await(localTraffic, 15 * SECOND);
      } finally {
        localTraffic.close();
        close(localStores);
      }
      print(
          "latency",
          "\"globalP50Ms\":%.3f,\"globalP99Ms\":%.3f,\"globalP999Ms\":%.3f,\"localP50Ms\":%.3f,"
              + "\"localP99Ms\":%.3f,\"localP999Ms\":%.3f",
          globalLatency[0] / 1e6,
          globalLatency[1] / 1e6,
          globalLatency[2] / 1e6,
          localTraffic.latencyQuantile(0.5) / 1e6,
          localTraffic.latencyQuantile(0.99) / 1e6,
          localTraffic.latencyQuantile(0.999) / 1e6);
    } finally {
      links.forEach(LatencyProxy::close);
      regional.forEach(RedisServer::close);
      global.close();
    }
  }

  private static Policy bucket(String name, long rate) {
    return new Policy(
        name,
        Algorithm.TOKEN_BUCKET,
        List.of(Limit.bucket(rate, Duration.ofSeconds(1), rate)),
        FailureMode.FAIL_CLOSED);
  }

  private static RedisStore[][] stores(
      Policy policy,
      boolean globalPolicy,
      int nodes,
      List<RedisServer> regional,
      List<LatencyProxy> links) {
    String prefix = "region-load:" + UUID.randomUUID() + ":";
    RedisStore[][] stores = new RedisStore[REGIONS][nodes];
    for (int r = 0; r < REGIONS; r++) {
      for (int n = 0; n < nodes; n++) {
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

  private static void close(RedisStore[][] stores) {
    for (RedisStore[] region : stores) {
      for (RedisStore store : region) {
        store.close();
      }
    }
  }

  private static void await(RegionTraffic traffic, long at) throws InterruptedException {
    long wait = at - traffic.now();
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
    }
  }

  private static void print(String measure, String format, Object... values) {
    System.out.println(
        "{\"subject\":\"region-load\",\"measure\":\""
            + measure
            + "\","
            + String.format(Locale.ROOT, format, values)
            + "}");
  }
}
