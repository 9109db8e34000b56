package io.github.limiter.internal.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A store view (docs/multi-region.md): the global policies of a store that runs in a region, and
 * what this node knows of each one's budget in its region. Read when a backend scrapes or an
 * operator asks, never on a request's path; every figure is this node's, as it last saw it.
 */
public interface RegionBudgets {

  /** This deployment's region, the {@code region} tag. */
  String region();

  /** The global policies' names, fixed at start-up. */
  List<String> policies();

  /** What this node knows of {@code policy}'s budget in its region; empty if it is not global. */
  Optional<Share> share(String policy);

  /**
   * One global policy's budget in this node's region.
   *
   * @param policy the policy's name
   * @param held permits the region's pool holds now and has not leased to a node, over the keys
   *     this node leases, as its last call to the pool saw them ({@code limiter.region.held})
   * @param leased permits the pool leased to this node's slices, less what they gave back unspent,
   *     since start ({@code limiter.region.leased})
   * @param returned permits this node gave back from the pool to the global budget, since start
   *     ({@code limiter.region.returned})
   * @param stranded permits the global budget charged to the region that no node will spend, since
   *     start, as this node found them ({@code limiter.region.stranded})
   * @param ratePerSecond the region's rate (permits its nodes took from the pool per second) at
   *     this node's last refill
   * @param granted what the global budget granted the region at that refill
   * @param fairShare the most one region may hold then: capacity ÷ the regions with a live lease
   * @param globalRemaining what the global budget had left after that grant
   * @param sinceRefill how long ago that refill was; empty if this node has made none
   */
  record Share(
      String policy,
      long held,
      long leased,
      long returned,
      long stranded,
      double ratePerSecond,
      long granted,
      long fairShare,
      long globalRemaining,
      Optional<Duration> sinceRefill) {

    public Share {
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(sinceRefill, "sinceRefill");
    }
  }
}
