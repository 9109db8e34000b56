package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.config.PolicyConfig;
import io.github.limiter.http.ChargedPolicies;
import io.github.limiter.http.ResponseRenderer;
import io.github.limiter.spi.RateLimitStore;
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
    return plan;
  }

  Events events() {
    return events;
  }

  /** Limits one call, then proceeds with it. */
  Object invoke(InvocationContext call) throws Exception {
    Plan.Charge[] charges = planFor(call).charges();
    String[] charged = new String[charges.length];
    Plan.Charge tightest = null;
    Decision tightestDecision = null;
    String tightestKey = null;
    long waitNanos = 0;
    try {
      for (int i = 0; i < charges.length; i++) {
        Plan.Charge charge = charges[i];
        PolicyConfig config = charge.config();
        if (ChargedPolicies.contains(config.name())) {
          continue; // the servlet filter already counted this request under this policy
        }
        Optional<String> found = charge.key().key(call);
        String key;
        Decision decision = null;
        if (found.isPresent()) {
          key = found.get();
        } else {
          switch (config.onMissingKey()) {
            case ALLOW -> {
              continue;
            }
            case REJECT -> {
              key = Keys.CONSTANT;
              decision = Decision.missingKey(config.name(), config.policy().limits().get(0));
            }
            default -> key = web.current().map(WebRequest::clientAddress).orElse(Keys.CONSTANT);
          }
        }
        if (decision == null) {
          decision = limiter.decide(config.policy(), key, charge.permits());
        }
        if (!decision.isAllowed()) {
          if (config.dryRun()) {
            rejected(config.policy(), decision, key, call.getMethod(), true);
            continue;
          }
          refund(charges, charged, i);
          rejected(config.policy(), decision, key, call.getMethod(), false);
          throw new RateLimitExceededException(config.policy(), decision, renderer);
        }
        charged[i] = key;
        if (tightestDecision == null || decision.remaining() < tightestDecision.remaining()) {
          tightest = charge;
          tightestDecision = decision;
          tightestKey = key;
        }
        waitNanos = Math.max(waitNanos, config.shaping().waitNanos(decision.delayNanos(), decision.limit().intervalNanos()));
      }
    } catch (RuntimeException e) {
      // A resolver, observer or store failed midway: what was charged for this call is given back.
      refund(charges, charged, charges.length);
      throw e;
    }
    if (tightest != null) {
      admitted(tightest.policy(), tightestDecision, tightestKey, call.getMethod());
    }
    if (waitNanos > 0) {
      shape(waitNanos);
    }
    return call.proceed();
  }

  private void refund(Plan.Charge[] charges, String[] charged, int upTo) {
    for (int j = 0; j < upTo; j++) {
      if (charged[j] != null) {
        limiter.store().refund(charges[j].policy(), Limiter.boundedKey(charged[j]), charges[j].permits());
        charged[j] = null;
      }
    }
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
