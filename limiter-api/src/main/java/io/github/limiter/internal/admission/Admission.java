package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.RequestView;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.http.ChargedPolicies;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.http.ClientKeys;
import io.github.limiter.internal.insight.Insight;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The one admission step of every adapter: keys first (with {@code on-missing-key}), then every
 * policy all-or-nothing, dry-run rejections set apart, the tightest admission, the longest shaping
 * wait and what was charged. Adapters build a {@link RequestView}, call {@link #admit}, and render
 * the {@link RequestFrame} it returns; an admitted request's frame then passes (entered on the
 * handling thread) and ends ({@link RequestFrame#end}).
 */
public final class Admission {

  private final ClientAddress address;
  private final boolean keyErrorsMeanNoKey;
  private final boolean skipsChargedPolicies;
  private final boolean marksCharged;
  private final AdmissionObserver observer;
  private final AdmissionMetrics metrics;
  private final HeaderWriter headers;
  private final Insight insight;

  /**
   * @param keyErrorsMeanNoKey whether a key source that throws counts as no key (the filter: bad
   *     input never becomes a 500) or propagates with nothing charged (the interceptor)
   * @param skipsChargedPolicies whether a policy an outer adapter charged for this request is left
   *     out: true for an inner adapter ({@code @Limited}), whose frames skip what the frames around
   *     them charged; false for an outer one (the filter), whose frames count as charged while they
   *     are entered
   * @param observer the adapter's own watcher of each frame (counters, events)
   * @param metrics where each outcome is reported for the metrics backends, or {@link
   *     AdmissionMetrics#OFF}
   */
  public Admission(
      ClientAddress address,
      boolean keyErrorsMeanNoKey,
      boolean skipsChargedPolicies,
      AdmissionObserver observer,
      AdmissionMetrics metrics) {
    this(address, keyErrorsMeanNoKey, skipsChargedPolicies, observer, metrics, null);
  }

  /**
   * An admission whose entered frames also leave their tightest admission to the enclosing HTTP
   * request ({@link RequestFrame#openEnclosing}), to be rendered with {@code headers}: the
   * interceptor's, inside a JAX-RS request.
   */
  public Admission(
      ClientAddress address,
      boolean keyErrorsMeanNoKey,
      boolean skipsChargedPolicies,
      AdmissionObserver observer,
      AdmissionMetrics metrics,
      HeaderWriter headers) {
    this(address, keyErrorsMeanNoKey, skipsChargedPolicies, observer, metrics, headers, null);
  }

  /**
   * An admission that also reports each request to {@code insight} (top keys, shadow trials); null:
   * one of its own with top keys off ({@link Insight#off}).
   */
  public Admission(
      ClientAddress address,
      boolean keyErrorsMeanNoKey,
      boolean skipsChargedPolicies,
      AdmissionObserver observer,
      AdmissionMetrics metrics,
      HeaderWriter headers,
      Insight insight) {
    this(
        address,
        keyErrorsMeanNoKey,
        skipsChargedPolicies,
        !skipsChargedPolicies,
        observer,
        metrics,
        headers,
        insight);
  }

  private Admission(
      ClientAddress address,
      boolean keyErrorsMeanNoKey,
      boolean skipsChargedPolicies,
      boolean marksCharged,
      AdmissionObserver observer,
      AdmissionMetrics metrics,
      HeaderWriter headers,
      Insight insight) {
    this.address = address;
    this.keyErrorsMeanNoKey = keyErrorsMeanNoKey;
    this.skipsChargedPolicies = skipsChargedPolicies;
    this.marksCharged = marksCharged;
    this.observer = observer;
    this.metrics = metrics;
    this.headers = headers;
    this.insight = insight != null ? insight : Insight.off();
  }

  /** What this admission reports each request to: top keys and shadow trials. */
  public Insight insight() {
    return insight;
  }

  /**
   * This admission, also leaving out the policies an outer adapter charged for the request, while
   * its own frames still count as charged for the adapters inside them: for an HTTP adapter that
   * may run behind another (the Jakarta REST filters behind the servlet filter, with
   * {@code @Limited} inside), so that each policy counts a request once.
   */
  public Admission skippingCharged() {
    return new Admission(
        address, keyErrorsMeanNoKey, true, true, observer, metrics, headers, insight);
  }

  /** Whether this admission's frames count as charged for the adapters inside them. */
  boolean marksCharged() {
    return marksCharged;
  }

  /** What an entered frame's tightest admission is rendered with for its enclosing request. */
  HeaderWriter headers() {
    return headers;
  }

  /** The client addresses, through trusted proxies, that this admission's rules key on. */
  ClientAddress address() {
    return address;
  }

  /**
   * Decides {@code request} under {@code set}; observes, records the metrics of, and returns the
   * outcome.
   */
  public RequestFrame admit(PolicySet set, RequestView request) {
    return admit(set, request, List.of());
  }

  /**
   * {@link #admit(PolicySet, RequestView)}, also leaving out {@code charged}: the policies an outer
   * adapter charged for the request and handed over with it ({@link
   * io.github.limiter.internal.http.RecordedRequest#charged}) rather than on this thread. Only an
   * admission that skips charged policies reads them.
   */
  public RequestFrame admit(PolicySet set, RequestView request, Collection<String> charged) {
    Rule[] rules = set.rules;
    int n = rules.length;
    // Keys first: a missing key under on-missing-key=reject rejects before anything is charged.
    String[] keys = new String[n];
    Decision[] dryRun = null;
    PolicyLimiter[] planned = null; // only for a set with plans
    for (int i = 0; i < n; i++) {
      Rule rule = rules[i];
      if (skipsChargedPolicies
          && (charged.contains(rule.name()) || ChargedPolicies.contains(rule.name()))) {
        continue;
      }
      String key = key(rule, request);
      Decision refused = null; // a missing key or an unknown plan, under reject
      if (key == null) {
        switch (rule.config().onMissingKey()) {
          case ALLOW -> {
            continue;
          }
          case REJECT -> refused = Decision.missingKey(rule.name(), rule.policy().limits().get(0));
          default -> key = address.key(request);
        }
      }
      if (refused == null && set.plans != null && set.plans.get(i) != null) {
        planned = planned != null ? planned : set.limiters.toArray(new PolicyLimiter[0]);
        String plan = plan(rule, request);
        PolicyLimiter bound = plan == null ? null : set.plans.get(i).get(plan);
        if (bound != null) {
          planned[i] = bound;
        } else if (plan != null && rule.config().plans().rejectUnknown()) {
          // The request never passes as it is; rendered with the missing key's text.
          refused = Decision.unknownPlan(rule.name(), rule.policy().limits().get(0));
        }
      }
      if (refused == null && rule.quota() != null) {
        planned = planned != null ? planned : set.limiters.toArray(new PolicyLimiter[0]);
        QuotaReader quota = rule.quota();
        planned[i] = set.inCalendar(planned[i], quota.zoneOf(request), quota.anchorOf(request));
      }
      if (refused != null) {
        if (!rule.dryRun()) {
          keys[i] = key != null ? key : ClientKeys.CONSTANT;
          return recorded(
              request,
              new RequestFrame(this, set, keys, null, dryRun, i, refused, -1, 0, null, planned),
              -1);
        }
        dryRun = dryRun != null ? dryRun : new Decision[n];
        dryRun[i] = refused;
        continue;
      }
      keys[i] = key;
    }
    long[] costs = set.costsVary ? costs(rules, request) : null;
    boolean timed = metrics.timesStore(); // metrics off or in-memory store: not even the clock
    long start = timed ? System.nanoTime() : 0;
    Decisions decisions =
        AllOrNothing.decideEach(
            planned == null ? set.limiters : Arrays.asList(planned),
            i -> keys[i],
            costs == null ? set.permitsAt : i -> costs[i],
            set.enforcedAt);
    long storeNanos = timed ? System.nanoTime() - start : -1;
    if (set.sheds && decisions.allowed()) {
      decisions =
          shed(
              set,
              request,
              decisions,
              planned == null ? set.limiters : Arrays.asList(planned),
              keys,
              costs);
    }
    int tightest = -1;
    long wait = 0;
    for (int i = 0; i < n; i++) {
      Decision decision = decisions.get(i);
      if (decision == null || i == decisions.rejectedAt()) {
        continue;
      }
      if (!decision.isAllowed()) {
        dryRun = dryRun != null ? dryRun : new Decision[n];
        dryRun[i] = decision; // a dry-run policy: decided, not charged
        continue;
      }
      if (tightest < 0 || decision.remaining() < decisions.get(tightest).remaining()) {
        tightest = i;
      }
      wait =
          Math.max(
              wait, rules[i].waitNanos(decision, costs == null ? rules[i].permits() : costs[i]));
    }
    int rejectedAt = decisions.rejectedAt();
    RequestFrame frame =
        new RequestFrame(
            this,
            set,
            keys,
            decisions,
            dryRun,
            rejectedAt,
            decisions.rejection(),
            tightest,
            rejectedAt < 0 ? wait : 0,
            costs,
            planned);
    if (set.adaptiveClock != null && rejectedAt < 0) {
      frame.admittedAt(set.adaptiveClock.nanos()); // its latency moves the adaptive limit
    }
    return recorded(request, frame, storeNanos);
  }

  /**
   * Refuses an admitted request that took, under some concurrency limit, the share kept for more
   * critical requests than it is: its charges are given back and the rejection is an overload. A
   * critical request, or one with room to spare, keeps {@code decisions}.
   */
  private static Decisions shed(
      PolicySet set,
      RequestView request,
      Decisions decisions,
      List<PolicyLimiter> limiters,
      String[] keys,
      long[] costs) {
    Criticality criticality = criticality(set, request);
    if (criticality == Criticality.CRITICAL) {
      return decisions;
    }
    Rule[] rules = set.rules;
    for (int i = 0; i < rules.length; i++) {
      Decision decision = decisions.get(i);
      if (decision == null
          || !decision.isAllowed()
          || !rules[i].releases()
          || rules[i].dryRun()
          || decision.remaining() >= rules[i].headroom(criticality, decision)) {
        continue;
      }
      Decision[] each = new Decision[rules.length];
      for (int j = 0; j < rules.length; j++) {
        Decision charged = decisions.get(j);
        each[j] = charged;
        if (charged != null && charged.isAllowed() && !rules[j].dryRun()) {
          limiters.get(j).refund(keys[j], costs == null ? rules[j].permits() : costs[j]);
        }
      }
      Limit limit = decisions.get(i).limit();
      each[i] = Decision.overloaded(rules[i].name(), limit, limit.periodNanos());
      return Decisions.of(each, i);
    }
    return decisions;
  }

  /**
   * A request's criticality: what the first of its policies' sources (a trusted header, a resolver)
   * names; else its place's (a route's, {@code @Limited}'s); else the first level a concurrency
   * policy sets other than {@code default}.
   */
  private static Criticality criticality(PolicySet set, RequestView request) {
    for (Rule rule : set.rules) {
      if (rule.criticality() != null) {
        try {
          Criticality named = Criticality.find(rule.criticality().read(request));
          if (named != null) {
            return named;
          }
        } catch (RuntimeException e) {
          // a criticality never fails a request: the next source decides
        }
      }
    }
    if (set.criticality != null) {
      return set.criticality;
    }
    for (Rule rule : set.rules) {
      if (rule.releases()) {
        Criticality level = rule.config().overload().criticality().level();
        if (level != Criticality.DEFAULT) {
          return level;
        }
      }
    }
    return Criticality.DEFAULT;
  }

  /**
   * Settles an admitted request when it ends: each concurrency policy ({@link Rule#releases}) gets
   * its permits back; each policy it does not count for ({@link Rule#counts}) gets back what the
   * request was charged; each one it reported an actual cost for ({@link CostReport}) is charged or
   * refunded the difference. {@link RequestFrame#end} calls it when an admitted request ends, on
   * every path; calls after the first do nothing.
   *
   * @param status the HTTP status of the response; -1 outside HTTP
   * @param failure what the handling threw, or null
   * @param report what the request reported of its actual cost, or null
   */
  void finish(RequestFrame outcome, int status, Throwable failure, CostReport report) {
    PolicySet set = outcome.policies();
    if (!outcome.allowed() || (!set.settles && report == null) || !outcome.settleOnce()) {
      return;
    }
    for (int i = 0; i < set.rules.length; i++) {
      Rule rule = set.rules[i];
      Decision decision = outcome.decision(i);
      // Not decided here (charged by an outer adapter, or no key), or not charged (a dry-run
      // rejection): nothing to settle.
      if (decision == null || !decision.isAllowed()) {
        continue;
      }
      long charged = outcome.cost(i);
      long delta = 0;
      if (rule.gate() != null) {
        long now = rule.gate().clock().nanos();
        rule.gate().release(charged, now - outcome.admittedAt(), now);
        continue;
      } else if (rule.releases()) {
        delta = -charged; // in flight no more, however it ended and whatever it reported
      } else if (rule.counts() != Counting.ALL && !rule.counts().counts(status, failure)) {
        delta = -charged;
      } else if (report != null) {
        long actual = report.actual(rule);
        delta = actual == CostReport.NONE ? 0 : actual - charged;
      }
      if (delta != 0) {
        outcome.limiter(i).adjust(outcome.key(i), delta);
      }
    }
  }

  /**
   * Each rule's cost for {@code request}. A cost source that fails (a resolver that throws) costs
   * the static permits, in both adapters: a cost is never a reason to fail a request.
   */
  private static long[] costs(Rule[] rules, RequestView request) {
    long[] costs = new long[rules.length];
    for (int i = 0; i < rules.length; i++) {
      Rule rule = rules[i];
      long permits = rule.permits();
      if (rule.cost() == null) {
        costs[i] = permits;
        continue;
      }
      String text;
      try {
        text = rule.cost().read(request);
      } catch (RuntimeException e) {
        text = null;
      }
      costs[i] = rule.config().cost().of(text, permits);
    }
    return costs;
  }

  /** The request's plan name; null (the default plan) when its source has none, or fails. */
  private static String plan(Rule rule, RequestView request) {
    try {
      String plan = rule.plan().read(request);
      return plan == null || plan.isBlank() ? null : plan.trim();
    } catch (RuntimeException e) {
      return null; // a plan never fails a request: the default plan applies
    }
  }

  private String key(Rule rule, RequestView request) {
    if (!keyErrorsMeanNoKey) {
      return rule.key().read(request);
    }
    try {
      return rule.key().read(request);
    } catch (RuntimeException e) {
      return null; // bad input must never become a 500: no key, and on-missing-key decides
    }
  }

  private RequestFrame recorded(RequestView request, RequestFrame outcome, long storeNanos) {
    observer.observe(request, outcome);
    if (metrics.on()) {
      metrics.record(outcome, storeNanos);
    }
    watch(outcome);
    return outcome;
  }

  /** Reports each keyed policy of {@code outcome} to the {@link Insight}. */
  private void watch(RequestFrame outcome) {
    int rejectedAt = outcome.rejectedAt();
    for (int i = 0; i < outcome.size(); i++) {
      String key = outcome.key(i);
      if (key == null) {
        continue; // no key here, or charged by an outer adapter
      }
      insight.seen(
          outcome.policy(i).name(),
          key,
          outcome.cost(i),
          outcome.decision(i) != null,
          i == rejectedAt || outcome.dryRunRejection(i) != null,
          rejectedAt < 0 || i == rejectedAt,
          rejectedAt < 0);
    }
  }
}
