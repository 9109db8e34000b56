package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * What {@link Admission} made of one call: each policy's key and decision, the rejection if any,
 * the dry-run rejections, the tightest admission, the longest shaping wait and what was charged.
 * Adapters render it; observers and metrics read it. The seam for settling after the response:
 * {@link #key} and {@link #charged} say what to adjust.
 */
public final class RequestFrame {

  private final PolicySet set;
  private final String[] keys;
  private final Decisions decisions;

  /** Per policy, a dry-run rejection (decided, or a missing key); null until there is one. */
  private final Decision[] dryRun;

  private final int rejectedAt;
  private final Decision rejection;
  private final int tightest;
  private final long waitNanos;

  /** Per policy, what the request cost; null when every rule's cost is its static permits. */
  private final long[] costs;

  /** Per policy, the bound policy of the request's plan; null when no rule has plans. */
  private final PolicyLimiter[] planned;

  private static final AtomicIntegerFieldUpdater<RequestFrame> SETTLED =
      AtomicIntegerFieldUpdater.newUpdater(RequestFrame.class, "settled");

  /** 1 once settled: an adapter may see a request end on more than one path. */
  private volatile int settled;

  RequestFrame(
      PolicySet set,
      String[] keys,
      Decisions decisions,
      Decision[] dryRun,
      int rejectedAt,
      Decision rejection,
      int tightest,
      long waitNanos,
      long[] costs,
      PolicyLimiter[] planned) {
    this.set = set;
    this.keys = keys;
    this.decisions = decisions;
    this.dryRun = dryRun;
    this.rejectedAt = rejectedAt;
    this.rejection = rejection;
    this.tightest = tightest;
    this.waitNanos = waitNanos;
    this.costs = costs;
    this.planned = planned;
  }

  public PolicySet policies() {
    return set;
  }

  public int size() {
    return set.size();
  }

  public Rule rule(int index) {
    return set.rules[index];
  }

  /** True for the first call only: settling gives permits back, which must happen once. */
  boolean settleOnce() {
    return settled == 0 && SETTLED.compareAndSet(this, 0, 1);
  }

  /** Whether the call may proceed: no enforced policy rejected it. */
  public boolean allowed() {
    return rejectedAt < 0;
  }

  /** The enforced rejection (a decision, or a missing key under {@code reject}), or null. */
  public Decision rejection() {
    return rejection;
  }

  /** The index of {@link #rejection()}'s policy, or -1. */
  public int rejectedAt() {
    return rejectedAt;
  }

  /**
   * The decisions of every policy; null when a missing key rejected the call before any was made.
   */
  public Decisions decisions() {
    return decisions;
  }

  /** The {@code index}th policy's decision, or null if it was not decided. */
  public Decision decision(int index) {
    return decisions == null ? null : decisions.get(index);
  }

  /**
   * The {@code index}th policy's key; {@code c:global} for a missing key's rejection; null if it
   * had none.
   */
  public String key(int index) {
    return keys[index];
  }

  /**
   * The {@code index}th policy's dry-run rejection (it charged nothing, and the call went on), or
   * null.
   */
  public Decision dryRunRejection(int index) {
    return dryRun == null ? null : dryRun[index];
  }

  /**
   * The policy that applied at {@code index}: the policy itself, or its plan's policy for this
   * request's plan. Headers and rejections show its limits.
   */
  public Policy policy(int index) {
    return planned == null ? set.rules[index].policy() : planned[index].policy();
  }

  /** {@link #policy(int)} of every index, as the renderer takes them. */
  public List<Policy> appliedPolicies() {
    if (planned == null) {
      return set.policies;
    }
    List<Policy> policies = new ArrayList<>(planned.length);
    for (PolicyLimiter limiter : planned) {
      policies.add(limiter.policy());
    }
    return policies;
  }

  /** The bound policy that decided at {@code index}: what to give a charge back to. */
  PolicyLimiter limiter(int index) {
    return planned == null ? set.limiters.get(index) : planned[index];
  }

  /** The permits the {@code index}th policy charged, or would have: the request's cost there. */
  public long cost(int index) {
    return costs == null ? set.rules[index].permits() : costs[index];
  }

  /** The index of the admission with the fewest permits left, or -1 if none. */
  public int tightest() {
    return tightest;
  }

  /**
   * How long the admitted call waits for its leaky-bucket departure: the longest wait among its
   * policies.
   */
  public long waitNanos() {
    return waitNanos;
  }

  /**
   * The names of the policies that charged (or decided) this call: what the inner adapter must not
   * count again.
   */
  public List<String> charged() {
    List<String> names = null;
    for (int i = 0; i < set.rules.length; i++) {
      boolean decided = decision(i) != null;
      if (!decided && names == null) {
        names = new ArrayList<>(set.names.subList(0, i));
      } else if (decided && names != null) {
        names.add(set.rules[i].name());
      }
    }
    return names == null ? set.names : names;
  }
}
