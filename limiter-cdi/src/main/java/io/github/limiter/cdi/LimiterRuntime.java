package io.github.limiter.cdi;

import io.github.limiter.internal.http.ClientKeys;
import io.github.limiter.Decision;
import io.github.limiter.internal.admission.AllOrNothing;
import io.github.limiter.internal.admission.Decisions;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.http.ChargedPolicies;
import io.github.limiter.internal.http.ResponseRenderer;
import io.github.limiter.RateLimitStore;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What {@link LimitedInterceptor} runs: the plans of every {@link Limited} method, the limiter over
 * the store bean, and the events. One per application, created on first use.
 */
@Singleton
class LimiterRuntime {

  private final Limiter limiter;
  private final ResponseRenderer renderer;
  private final Events events;
  private final double nearLimit;
  private final WebRequests web;
  private final PlanBuilder builder;
  /** Plans by method; a method inherited by several bean classes with class-level annotations is in {@link #shared}. */
  private final Map<Method, Plan> plans = new HashMap<>();
  private final Map<Method, Map<Class<?>, Plan>> shared = new HashMap<>();
  /** Plans for calls the extension did not see (e.g. beans added by other extensions). */
  private final ConcurrentHashMap<List<Object>, Plan> late = new ConcurrentHashMap<>();

  @Inject
  LimiterRuntime(LimiterExtension extension, BeanManager beans, RateLimitStore store) {
    LimiterSetup setup = extension.setup();
    this.limiter = Limiter.of(store);
    this.renderer = setup.renderer();
    this.events = new Events(beans);
    this.nearLimit = setup.nearLimit();
    this.web = WebRequests.create(beans, setup.addresses());
    this.builder = new PlanBuilder(setup.config(), new Resolvers(beans), web);
    Map<Method, Class<?>> owners = new HashMap<>();
    for (Site site : extension.sites()) {
      Plan plan = plan(site);
      Method method = site.method();
      Class<?> owner = owners.putIfAbsent(method, site.beanClass());
      if (owner == null) {
        plans.put(method, plan);
      } else if (owner != site.beanClass()) {
        Map<Class<?>, Plan> byClass = shared.computeIfAbsent(method, m -> new HashMap<>());
        Plan first = plans.remove(method);
        if (first != null) {
          byClass.put(owner, first);
        }
        byClass.put(site.beanClass(), plan);
      }
    }
  }

  private Plan plan(Site site) {
    List<String> problems = new ArrayList<>();
    Plan plan = builder.build(site, problems);
    if (plan == null) {
      // The extension reports these at deployment; reaching here means a site it did not check.
      throw new IllegalStateException(String.join("; ", problems));
    }
    return plan.boundTo(limiter);
  }

  Events events() {
    return events;
  }

  /** Limits one call, then proceeds with it. */
  Object invoke(InvocationContext call) throws Exception {
    Plan plan = planFor(call);
    Plan.Charge[] charges = plan.charges();
    int n = charges.length;
    // Keys first: a resolver that fails, or a missing key under reject, leaves nothing charged.
    String[] keys = new String[n];
    for (int i = 0; i < n; i++) {
      Plan.Charge charge = charges[i];
      PolicyConfig config = charge.config();
      if (ChargedPolicies.contains(config.name())) {
        continue; // the servlet filter already counted this request under this policy
      }
      Optional<String> found = charge.key().key(call);
      if (found.isPresent()) {
        keys[i] = found.get();
        continue;
      }
      switch (config.onMissingKey()) {
        case ALLOW -> {
          // not limited by this policy
        }
        case REJECT -> {
          Decision missing = Decision.missingKey(config.name(), config.policy().limits().get(0));
          rejected(config.policy(), missing, ClientKeys.CONSTANT, call.getMethod(), config.dryRun());
          if (!config.dryRun()) {
            throw new RateLimitExceededException(config.policy(), missing, renderer);
          }
        }
        default -> keys[i] = web.current().map(WebRequest::clientAddress).orElse(ClientKeys.CONSTANT);
      }
    }
    Decisions decisions = AllOrNothing.decideEach(plan.limiters(), i -> keys[i], plan.permitsAt(), plan.enforcedAt());
    int tightest = -1;
    long waitNanos = 0;
    for (int i = 0; i < n; i++) {
      Decision decision = decisions.get(i);
      if (decision == null || i == decisions.rejectedAt()) {
        continue;
      }
      PolicyConfig config = charges[i].config();
      if (!decision.isAllowed()) {
        rejected(config.policy(), decision, keys[i], call.getMethod(), true); // dry run: not charged
        continue;
      }
      if (tightest < 0 || decision.remaining() < decisions.get(tightest).remaining()) {
        tightest = i;
      }
      waitNanos = Math.max(waitNanos, config.shaping().waitNanos(decision, charges[i].permits()));
    }
    if (!decisions.allowed()) {
      int at = decisions.rejectedAt();
      Policy policy = charges[at].policy();
      rejected(policy, decisions.rejection(), keys[at], call.getMethod(), false);
      throw new RateLimitExceededException(policy, decisions.rejection(), renderer);
    }
    if (tightest >= 0) {
      admitted(charges[tightest].policy(), decisions.get(tightest), keys[tightest], call.getMethod());
    }
    if (waitNanos > 0) {
      shape(waitNanos);
    }
    return call.proceed();
  }

  private void rejected(Policy policy, Decision decision, String key, Method method, boolean dryRun) {
    if (events.rejectedObserved()) {
      events.rejected(new RateLimitRejected(policy, decision, key, method, dryRun));
    }
  }

  private void admitted(Policy policy, Decision decision, String key, Method method) {
    if (events.admittedObserved()) {
      events.admitted(new RateLimitAdmitted(policy, decision, key, method));
    }
    if (events.nearLimitObserved() && isNearLimit(policy, decision)) {
      events.nearLimit(new RateLimitNearLimit(policy, decision, key, method));
    }
    AdmittedDecisions.record(policy, decision, renderer);
  }

  private boolean isNearLimit(Policy policy, Decision decision) {
    Limit limit = decision.limit();
    long quota = policy.algorithm().isBucket() ? limit.burst() : limit.permits();
    return decision.remaining() <= (long) Math.floor(quota * nearLimit);
  }

  /** Leaky-bucket shaping: the admitted call waits for its departure, at most max-delay. */
  private static void shape(long waitNanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(waitNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // proceed at once, and let the caller see the interrupt
    }
  }

  private Plan planFor(InvocationContext call) {
    Method method = call.getMethod();
    Plan plan = plans.get(method);
    if (plan != null) {
      return plan;
    }
    Object target = call.getTarget();
    Class<?> targetClass = target == null ? method.getDeclaringClass() : target.getClass();
    Map<Class<?>, Plan> byClass = shared.get(method);
    if (byClass != null) {
      for (Class<?> c = targetClass; c != null; c = c.getSuperclass()) {
        Plan found = byClass.get(c);
        if (found != null) {
          return found;
        }
      }
    }
    return late.computeIfAbsent(List.of(targetClass, method), k -> latePlan(targetClass, method));
  }

  private Plan latePlan(Class<?> targetClass, Method method) {
    Limited limited = method.getAnnotation(Limited.class);
    boolean fromClass = limited == null;
    if (fromClass) {
      limited = targetClass.getAnnotation(Limited.class);
    }
    return limited == null ? Plan.NONE : plan(new Site(targetClass, method, limited, fromClass));
  }
}
