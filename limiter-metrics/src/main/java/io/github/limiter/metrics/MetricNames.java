package io.github.limiter.metrics;

import io.github.limiter.internal.metrics.RegionBudgets;
import java.util.function.ToLongFunction;

/** The names, tags and descriptions every backend uses, so that they are the same on each. */
final class MetricNames {

  static final String DECISIONS = "limiter.decisions";
  static final String NEAR_LIMIT = "limiter.near.limit";
  static final String SHAPING_DELAY = "limiter.shaping.delay";
  static final String STORE_DURATION = "limiter.store.duration";
  static final String CIRCUIT_STATE = "limiter.store.circuit.state";
  static final String MEMORY_KEYS = "limiter.memory.keys";
  static final String MEMORY_EVICTIONS = "limiter.memory.evictions";
  static final String OUTBOUND = "limiter.outbound";
  static final String CONCURRENCY_LIMIT = "limiter.concurrency.limit";
  static final String CONCURRENCY_IN_FLIGHT = "limiter.concurrency.in.flight";
  static final String CONCURRENCY_LATENCY = "limiter.concurrency.latency";
  static final String CONCURRENCY_BASELINE = "limiter.concurrency.latency.baseline";
  static final String ADMIN_CHANGES = "limiter.admin.changes";

  static final String POLICY = "policy";
  static final String OUTCOME = "outcome";
  static final String VERIFIED = "verified";
  static final String STORE = "store";
  static final String EVENT = "event";
  static final String ACTION = "action";
  static final String REGION = "region";

  static final String DECISIONS_HELP =
      "Decisions per policy and outcome; verified=false when a failure mode"
          + " decided without the store";
  static final String NEAR_LIMIT_HELP =
      "Admitted requests that left at most limiter.events.near-limit of the quota";
  static final String SHAPING_DELAY_HELP = "How long shaped requests waited";
  static final String STORE_DURATION_HELP = "How long one store decision took";
  static final String CIRCUIT_STATE_HELP =
      "The store's circuit breaker: 0 closed, 1 half-open, 2 open";
  static final String MEMORY_KEYS_HELP = "Keys the in-memory store holds";
  static final String MEMORY_EVICTIONS_HELP = "Keys the in-memory store has evicted since start";

  static final String OUTBOUND_HELP =
      "Outbound calls per outbound policy and event: called, waited, failed (locally, after"
          + " max-wait), refused (429 or 503 from the upstream), blocked (the upstream asked for a"
          + " pause), retried";
  static final String CONCURRENCY_LIMIT_HELP =
      "The adaptive concurrency limit now: the most requests in flight on this node";
  static final String CONCURRENCY_IN_FLIGHT_HELP =
      "Requests in flight under an adaptive concurrency limit on this node";
  static final String CONCURRENCY_LATENCY_HELP =
      "The average latency of the last window of requests an adaptive limit measured, in seconds";
  static final String CONCURRENCY_BASELINE_HELP =
      "The latency without queueing an adaptive limit measured, in seconds";
  static final String ADMIN_CHANGES_HELP =
      "Changes operators made through the admin API, per policy and action";

  /**
   * The gauges of a global policy in the node's region (docs/multi-region.md), each {@code
   * {policy,region}}, read from the store's {@link RegionBudgets} when scraped.
   */
  enum RegionGauge {
    HELD(
        "limiter.region.held",
        "Permits the region's pool of a global policy holds and has not leased to a node, as this"
            + " node last saw it",
        RegionBudgets.Share::held),
    LEASED(
        "limiter.region.leased",
        "Permits this node leased from its region's pool, less what it gave back unspent, since"
            + " start",
        RegionBudgets.Share::leased),
    RETURNED(
        "limiter.region.returned",
        "Permits this node gave back from its region's pool to the global budget, since start",
        RegionBudgets.Share::returned),
    STRANDED(
        "limiter.region.stranded",
        "Permits the global budget charged to the region that no node will spend, as this node"
            + " found them, since start",
        RegionBudgets.Share::stranded);

    final String metric;
    final String help;
    private final ToLongFunction<RegionBudgets.Share> value;

    RegionGauge(String metric, String help, ToLongFunction<RegionBudgets.Share> value) {
      this.metric = metric;
      this.help = help;
      this.value = value;
    }

    /** The gauge's value for {@code policy} now; 0 if the store no longer knows it. */
    long read(RegionBudgets budgets, String policy) {
      return budgets.share(policy).map(value::applyAsLong).orElse(0L);
    }
  }

  private MetricNames() {}
}
