package io.github.limiter.internal.admission;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.PolicyConfig;

/**
 * One policy as an adapter applies it at one place (a route, a method): where its key comes from
 * and what a request costs.
 *
 * @param permits what a request costs when {@code cost} gives no answer
 * @param cost the request's cost as text (see {@link PolicyConfig.Cost#of}), or null when every
 *     request costs {@code permits}
 * @param counts which requests count; the others are refunded when they end
 * @param plan the request's plan name (see {@link RuleCompiler#plan}), or null when the policy has
 *     no plans
 * @param criticality the request's criticality as text (see {@link RuleCompiler#criticality}), or
 *     null when the policy names no source of it
 * @param gate the node's requests in flight under an adaptive policy, and its limit; null for any
 *     other policy
 * @param quota the request's zone and anchor day for the calendar quotas, when resolvers answer
 *     them; null when they are fixed (or there are no quotas)
 */
public record Rule(
    PolicyConfig config,
    RequestReader key,
    long permits,
    RequestReader cost,
    Counting counts,
    RequestReader plan,
    RequestReader criticality,
    AdaptiveGate gate,
    QuotaReader quota) {

  /** A rule whose quotas have a fixed zone and anchor day. */
  public Rule(
      PolicyConfig config,
      RequestReader key,
      long permits,
      RequestReader cost,
      Counting counts,
      RequestReader plan,
      RequestReader criticality,
      AdaptiveGate gate) {
    this(config, key, permits, cost, counts, plan, criticality, gate, null);
  }

  /** A rule whose requests cost {@code permits} each, and all count. */
  public Rule(PolicyConfig config, RequestReader key, long permits) {
    this(config, key, permits, null, Counting.ALL, null, null, null, null);
  }

  /** A rule whose requests' criticality is its policy's, or the route's; not adaptive. */
  public Rule(
      PolicyConfig config,
      RequestReader key,
      long permits,
      RequestReader cost,
      Counting counts,
      RequestReader plan) {
    this(config, key, permits, cost, counts, plan, null, null, null);
  }

  /** A rule without plans. */
  public Rule(
      PolicyConfig config, RequestReader key, long permits, RequestReader cost, Counting counts) {
    this(config, key, permits, cost, counts, null, null, null, null);
  }

  public Policy policy() {
    return config.policy();
  }

  public String name() {
    return config.name();
  }

  /** Whether the request's permits are given back whenever it ends: a concurrency limit. */
  public boolean releases() {
    return config.policy().algorithm() == Algorithm.CONCURRENCY;
  }

  /**
   * The permits a request of {@code criticality} must leave free under this concurrency rule, as
   * its limit is now (the limit that {@code admitted} was decided under, or the adaptive gate's):
   * the shares kept for more critical requests.
   */
  long headroom(Criticality criticality, Decision admitted) {
    return gate != null
        ? gate.headroom(criticality)
        : criticality.headroom(admitted.limit().permits(), config.overload().criticalShare());
  }

  public boolean dryRun() {
    return config.dryRun();
  }

  /**
   * How long an admission of {@code cost} permits under this rule waits for its leaky-bucket
   * departure; 0 if it does not.
   */
  public long waitNanos(Decision decision, long cost) {
    return config.dryRun() ? 0 : config.shaping().waitNanos(decision, cost);
  }
}
