package io.github.limiter.internal.admin;

import io.github.limiter.internal.metrics.RegionBudgets;
import io.github.limiter.internal.runtime.LimiterRuntime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admin API's read-only view of the global policies (docs/multi-region.md): for each, what this
 * node knows of its region's share of the one budget, from the store's {@link RegionBudgets}.
 */
final class AdminRegions {

  private AdminRegions() {}

  /**
   * The region and its global policies as JSON; empty if the store runs in no region. Each policy:
   * held, leased, returned, stranded (as the {@code limiter.region.*} gauges), the region's rate
   * and the grant, fair share and global budget left at this node's last refill, and how long ago
   * that was ({@code null} before the first).
   */
  static Optional<Map<String, Object>> json(LimiterRuntime runtime) {
    return runtime
        .store()
        .view(RegionBudgets.class)
        .map(
            budgets -> {
              List<Map<String, Object>> policies = new ArrayList<>();
              for (String name : budgets.policies()) {
                budgets.share(name).ifPresent(share -> policies.add(json(share)));
              }
              Map<String, Object> json = new LinkedHashMap<>();
              json.put("region", budgets.region());
              json.put("policies", policies);
              return json;
            });
  }

  private static Map<String, Object> json(RegionBudgets.Share share) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("policy", share.policy());
    json.put("held", share.held());
    json.put("leased", share.leased());
    json.put("returned", share.returned());
    json.put("stranded", share.stranded());
    json.put("ratePerSecond", Math.round(share.ratePerSecond() * 1000) / 1000.0);
    json.put("granted", share.granted());
    json.put("fairShare", share.fairShare());
    json.put("globalRemaining", share.globalRemaining());
    json.put(
        "lastRefillSecondsAgo",
        share.sinceRefill().map(d -> Math.round(d.toMillis() / 100.0) / 10.0).orElse(null));
    return json;
  }
}
