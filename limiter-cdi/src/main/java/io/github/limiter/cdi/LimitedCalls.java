package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.RequestView;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.NearLimit;
import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.http.ClientKeys;
import io.github.limiter.internal.http.RecordedRequest;
import io.github.limiter.internal.insight.PolicyScope;
import io.github.limiter.internal.log.StartLog;
import io.github.limiter.internal.render.ResponseRenderer;
import io.github.limiter.internal.runtime.LimiterRuntime;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * What {@link LimitedInterceptor} runs: the rules of every {@link Limited} method, admitted through
 * the application's {@link LimiterRuntime}, and the events. One per application, created as it
 * starts ({@link LimiterBeans#start}).
 */
@Singleton
class LimitedCalls {

  private static final Logger LOG = Logger.getLogger(LimitedCalls.class.getName());

  /**
   * The time seam of shaping: how an admitted call waits for its departure. Tests replace it with a
   * bean.
   */
  @FunctionalInterface
  interface ShapingPause {
    ShapingPause SLEEP = nanos -> TimeUnit.NANOSECONDS.sleep(nanos);

    void pause(long nanos) throws InterruptedException;
  }

  private final LimiterRuntime runtime;
  private final ResponseRenderer renderer;
  private final Events events;
  private final NearLimit nearLimit;
  private final WebRequests web;
  private final Admission admission;

  private final SiteRules siteRules;
  private final ShapingPause pause;

  /**
   * Policy sets by method; a method inherited by several bean classes with class-level annotations
   * is in {@link #shared}.
   */
  private final Map<Method, PolicySet> policySets = new HashMap<>();

  private final Map<Method, Map<Class<?>, PolicySet>> shared = new HashMap<>();

  /** Policy sets for calls the extension did not see (e.g. beans added by other extensions). */
  private final ConcurrentHashMap<List<Object>, PolicySet> late = new ConcurrentHashMap<>();

  @Inject
  LimitedCalls(
      LimiterDeployment extension,
      BeanManager beans,
      LimiterRuntime runtime,
      Instance<ShapingPause> pauses,
      Instance<RecordedRequest> recorded) {
    LimiterSetup setup = extension.setup();
    this.runtime = runtime;
    this.renderer = setup.renderer();
    this.events = new Events(beans);
    this.nearLimit = setup.nearLimit();
    this.web = WebRequests.create(beans, recorded);
    this.admission = runtime.admission(false, true, this::fireEvents, renderer::headers);
    this.siteRules =
        new SiteRules(
            runtime.config(),
            SiteRules.resolvers(beans, setup.loader()),
            admission,
            runtime.gates());
    this.pause = pauses.isResolvable() ? pauses.get() : ShapingPause.SLEEP;
    Map<Method, Class<?>> owners = new HashMap<>();
    for (Site site : extension.sites()) {
      PolicySet set = policySet(site);
      Method method = site.method();
      Class<?> owner = owners.putIfAbsent(method, site.beanClass());
      if (owner == null) {
        policySets.put(method, set);
      } else if (owner != site.beanClass()) {
        Map<Class<?>, PolicySet> byClass = shared.computeIfAbsent(method, m -> new HashMap<>());
        PolicySet first = policySets.remove(method);
        if (first != null) {
          byClass.put(owner, first);
        }
        byClass.put(site.beanClass(), set);
      }
    }
    runtime.insight().describe(scopes(extension.sites(), runtime.config()));
    StartLog.started(
        LOG,
        "@Limited",
        runtime.config(),
        extension.sites().stream().map(Site::describe).toList(),
        runtime.config().store(),
        runtime.recorder());
  }

  /** What each policy limits here, for operators: its methods, and their keys. */
  private static Map<String, PolicyScope> scopes(Iterable<Site> sites, LimiterConfig config) {
    Map<String, PolicyScope> scopes = new HashMap<>();
    for (Site site : sites) {
      String where = site.beanClass().getName() + "#" + site.method().getName();
      String own = site.limited().key().trim();
      for (String name : site.limited().value()) {
        config
            .policy(name)
            .ifPresent(
                policy ->
                    PolicyScope.addSite(
                        scopes, policy, where, own.isEmpty() ? policy.key().toString() : own));
      }
    }
    return scopes;
  }

  private PolicySet policySet(Site site) {
    List<String> problems = new ArrayList<>();
    List<Rule> rules = siteRules.build(site, problems);
    if (rules == null) {
      // The extension reports these at deployment; reaching here means a site it did not check.
      throw new IllegalStateException(String.join("; ", problems));
    }
    return runtime.policySet(rules, SiteRules.criticality(site));
  }

  Events events() {
    return events;
  }

  /** Limits one call, then proceeds with it inside its frame, and ends the frame. */
  Object invoke(InvocationContext call) throws Exception {
    PolicySet set = policiesFor(call);
    if (set.size() == 0) {
      return call.proceed();
    }
    // What a route charged for the request counts once, whichever thread its filter ran on.
    RequestFrame frame = admission.admit(set, new CallView(call, web.current()), web.charged());
    if (!frame.allowed()) {
      throw new RateLimitExceededException(
          frame.policy(frame.rejectedAt()), frame.rejection(), renderer);
    }
    frame.enter();
    Throwable failure = null;
    try {
      if (frame.waitNanos() > 0) {
        // Leaky-bucket shaping: the call waits for its departure.
        try {
          pause.pause(frame.waitNanos());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt(); // proceed at once, and let the caller see it
        }
      }
      return call.proceed();
    } catch (Exception | Error e) {
      failure = e;
      throw e;
    } finally {
      // Concurrency permits come back; a call that does not count gets its charge back; one that
      // reported its cost settles it.
      frame.exit();
      frame.end(-1, failure);
    }
  }

  /** The events of one outcome: each rejection, dry run or not, and the tightest admission. */
  private void fireEvents(RequestView request, RequestFrame outcome) {
    if (!events.rejectedObserved() && !events.admittedObserved() && !events.nearLimitObserved()) {
      return;
    }
    Method method = request.unwrap(InvocationContext.class).getMethod();
    for (int i = 0; i < outcome.size(); i++) {
      Decision dryRun = outcome.dryRunRejection(i);
      String key = outcome.key(i) == null ? ClientKeys.CONSTANT : outcome.key(i);
      if (dryRun != null && events.rejectedObserved()) {
        events.rejected(new RateLimitRejected(outcome.policy(i), dryRun, key, method, true));
      }
    }
    if (!outcome.allowed()) {
      if (events.rejectedObserved()) {
        int at = outcome.rejectedAt();
        events.rejected(
            new RateLimitRejected(
                outcome.policy(at), outcome.rejection(), outcome.key(at), method, false));
      }
      return;
    }
    int tightest = outcome.tightest();
    if (tightest < 0) {
      return;
    }
    Policy policy = outcome.policy(tightest);
    Decision decision = outcome.decision(tightest);
    String key = outcome.key(tightest);
    if (events.admittedObserved()) {
      events.admitted(new RateLimitAdmitted(policy, decision, key, method));
    }
    if (events.nearLimitObserved() && nearLimit.test(policy, decision)) {
      events.nearLimit(new RateLimitNearLimit(policy, decision, key, method));
    }
  }

  private PolicySet policiesFor(InvocationContext call) {
    Method method = call.getMethod();
    PolicySet set = policySets.get(method);
    if (set != null) {
      return set;
    }
    Object target = call.getTarget();
    Class<?> targetClass = target == null ? method.getDeclaringClass() : target.getClass();
    Map<Class<?>, PolicySet> byClass = shared.get(method);
    if (byClass != null) {
      for (Class<?> c = targetClass; c != null; c = c.getSuperclass()) {
        PolicySet found = byClass.get(c);
        if (found != null) {
          return found;
        }
      }
    }
    return late.computeIfAbsent(
        List.of(targetClass, method), k -> latePolicySet(targetClass, method));
  }

  private PolicySet latePolicySet(Class<?> targetClass, Method method) {
    Limited limited = method.getAnnotation(Limited.class);
    boolean fromClass = limited == null;
    if (fromClass) {
      limited = targetClass.getAnnotation(Limited.class);
    }
    return limited == null
        ? PolicySet.NONE
        : policySet(new Site(targetClass, method, limited, fromClass));
  }
}
