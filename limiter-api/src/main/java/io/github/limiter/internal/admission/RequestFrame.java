package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.http.ChargedPolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;

/**
 * One request as {@link Admission} admitted or rejected it, and, when admitted, everything about it
 * until it ends. What admission made of it: each policy's key and decision, the rejection if any,
 * the dry-run rejections, the tightest admission, the longest shaping wait and what was charged.
 * Adapters render a rejected frame; an admitted one they only pass and end:
 *
 * <ul>
 *   <li>{@link #enter} and {@link #exit} around the handling, on its thread: meanwhile the policies
 *       it charged count as charged for an inner adapter, {@link io.github.limiter.ActualCost}
 *       reports reach it, and the tightest admission of a {@code @Limited} call is left to its
 *       enclosing HTTP request ({@link #openEnclosing});
 *   <li>{@link #end} when the request ends, on whichever path (the async listeners call it too): it
 *       settles the request; calls after the first do nothing.
 * </ul>
 *
 * <p>Observers and metrics read it too. Its per-thread bookkeeping reuses one object per thread, so
 * passing allocates nothing beyond the frame.
 */
public final class RequestFrame {

  /** The enclosing HTTP request this thread serves, if an HTTP adapter opened one. */
  private static final ThreadLocal<Enclosing> ENCLOSING = new ThreadLocal<>();

  private final Admission admission;
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

  /** While entered under an outer adapter: the scope in which its policies count as charged. */
  private ChargedPolicies.Scope charged;

  /** When an adaptive policy admitted it, on that policy's clock: the start of its latency. */
  private long admittedAt;

  /** What the request reported of its actual cost, once its handling exited; null if nothing. */
  private volatile CostReport report;

  RequestFrame(
      Admission admission,
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
    this.admission = admission;
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

  void admittedAt(long nanos) {
    admittedAt = nanos;
  }

  /** When an adaptive policy admitted the request, on its clock; 0 if none did. */
  long admittedAt() {
    return admittedAt;
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
   * request's plan, in its live version. Headers and rejections show its limits.
   */
  public Policy policy(int index) {
    return limiter(index).policy();
  }

  /** {@link #policy(int)} of every index, as the renderer takes them. */
  public List<Policy> appliedPolicies() {
    if (planned == null && set.asDeployed()) {
      return set.policies;
    }
    int size = set.size();
    List<Policy> policies = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      policies.add(policy(i));
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

  /**
   * Begins handling the admitted request on this thread: until {@link #exit}, the policies it
   * charged count as charged for an inner adapter (when an outer adapter admitted it), what the
   * request reports of its {@link io.github.limiter.ActualCost} is kept for it, and (for {@code
   * Limited}) its tightest admission is left to the enclosing HTTP request. Nested frames share the
   * outermost one's cost report.
   */
  public void enter() {
    enter(true);
  }

  /**
   * {@link #enter()}; with {@code chargedOnThread} false, the policies it charged do not count as
   * charged on this thread: the adapter hands them over with the request ({@link
   * io.github.limiter.internal.http.RecordedRequest#charged}), which carries them to whichever
   * thread serves it, and no scope of theirs stays open here if another thread ends the request.
   */
  public void enter(boolean chargedOnThread) {
    if (chargedOnThread && admission.marksCharged()) {
      charged = ChargedPolicies.open(charged());
    }
    CostReport.enter();
    HeaderWriter headers = admission.headers();
    if (headers != null && tightest >= 0) {
      Enclosing enclosing = ENCLOSING.get();
      if (enclosing != null) {
        enclosing.record(policy(tightest), decision(tightest), headers);
      }
    }
  }

  /** Ends what {@link #enter} began on this thread; keeps the request's cost report, if any. */
  public void exit() {
    ChargedPolicies.Scope scope = charged;
    if (scope != null) {
      charged = null;
      scope.close();
    }
    CostReport made = CostReport.exit();
    if (made != null) {
      report = made;
    }
  }

  /**
   * Whether ending the request has something to settle: a concurrency permit, a charge of a policy
   * that counts only some requests, or a reported actual cost. Without one, an adapter need not
   * watch for the request's end (an async listener).
   */
  public boolean settles() {
    return allowed() && (set.settles || report != null);
  }

  /**
   * Settles the request when it ends (see {@link Admission#finish}); calls after the first do
   * nothing, so every path that sees the request end may call it.
   *
   * @param status the HTTP status of the response; -1 outside HTTP
   * @param failure what the handling threw, or null
   */
  public void end(int status, Throwable failure) {
    admission.finish(this, status, failure, report);
  }

  /**
   * Opens, on this thread, the frame of an HTTP request that Limiter's filter does not admit (a
   * JAX-RS request): the {@code @Limited} calls inside it leave their tightest admission there, for
   * its {@code RateLimit} headers. One left open on this thread (by a request that went
   * asynchronous) is replaced, never kept.
   */
  public static Enclosing openEnclosing() {
    Enclosing enclosing = new Enclosing();
    ENCLOSING.set(enclosing);
    return enclosing;
  }

  /** The admissions of one enclosing HTTP request: see {@link #openEnclosing}. */
  public static final class Enclosing implements AutoCloseable {
    private Policy policy;
    private Decision decision;
    private HeaderWriter renderer;

    private Enclosing() {}

    synchronized void record(Policy admittedPolicy, Decision admitted, HeaderWriter with) {
      if (decision == null || admitted.remaining() < decision.remaining()) {
        policy = admittedPolicy;
        decision = admitted;
        renderer = with;
      }
    }

    /** Whether nothing was admitted under a policy. */
    public synchronized boolean isEmpty() {
      return decision == null;
    }

    /** Writes the rate-limit headers of the tightest admission, as configured; nothing if none. */
    public synchronized void headers(BiConsumer<String, String> header) {
      if (decision != null) {
        renderer.write(policy, decision, header);
      }
    }

    /** Stops collecting on this thread; the headers stay readable. */
    @Override
    public void close() {
      if (ENCLOSING.get() == this) {
        ENCLOSING.remove();
      }
    }
  }
}
