package io.github.limiter.cdi;

import io.github.limiter.ConfigException;
import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.admission.AdaptiveGates;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.AdmissionMetrics;
import io.github.limiter.internal.admission.AdmissionObserver;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.Suggestion;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.internal.log.StartLog;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Decorator;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.Interceptor;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * Registers the {@link Limited} interceptor and its beans, finds every use of {@link Limited}, and
 * fails the deployment when one names a policy, parameter or resolver that does not exist, or when
 * the {@code limiter.*} configuration is invalid: a typo fails the deployment, not the first call.
 *
 * <p>The library jar carries no {@code beans.xml}: this extension adds its beans, so it works the
 * same whether or not the container scans the jar.
 */
public class LimiterExtension implements Extension {

  private static final Logger LOG = Logger.getLogger(LimiterExtension.class.getName());

  private final List<Site> sites = new ArrayList<>();
  private LimiterSetup setup;

  void register(@Observes BeforeBeanDiscovery event, BeanManager beans) {
    for (Class<?> type :
        List.of(LimitedInterceptor.class, LimitedCalls.class, LimiterBeans.class)) {
      event.addAnnotatedType(
          beans.createAnnotatedType(type),
          LimiterExtension.class.getName() + "." + type.getSimpleName());
    }
  }

  <T> void collect(@Observes ProcessManagedBean<T> event) {
    Bean<T> bean = event.getBean();
    if (bean instanceof Interceptor<?> || bean instanceof Decorator<?>) {
      return;
    }
    AnnotatedType<T> type = event.getAnnotatedBeanClass();
    Limited onClass = type.getAnnotation(Limited.class);
    for (AnnotatedMethod<? super T> annotated : type.getMethods()) {
      Method method = annotated.getJavaMember();
      int modifiers = method.getModifiers();
      if (Modifier.isStatic(modifiers)
          || Modifier.isPrivate(modifiers)
          || method.getDeclaringClass() == Object.class
          || method.isSynthetic()) {
        continue; // not a business method: never intercepted
      }
      Limited onMethod = annotated.getAnnotation(Limited.class);
      Limited limited = onMethod != null ? onMethod : onClass;
      if (limited != null) {
        sites.add(new Site(type.getJavaClass(), method, limited, onMethod == null));
      }
    }
  }

  void validate(@Observes AfterDeploymentValidation event, BeanManager beans) {
    if (sites.isEmpty()) {
      return;
    }
    // Messages by text, so that a class-level problem is reported once, not once per method.
    Map<String, Throwable> problems = new LinkedHashMap<>();
    LimiterSetup loaded = null;
    Set<String> declared = null;
    try {
      loaded = setup();
    } catch (ConfigException e) {
      // Every configuration problem, each on its own, and the policies the configuration names all
      // the same.
      e.problems().forEach(problem -> problems.put(problem.getMessage(), problem));
      declared = declaredPolicies(e);
    } catch (IllegalStateException e) {
      problems.put(e.getMessage(), e);
    }
    ClassLoader loader =
        loaded == null ? Thread.currentThread().getContextClassLoader() : loaded.loader();
    Admission admission =
        new Admission(
            new ClientAddress(HttpSettings.DEFAULTS),
            false,
            true,
            AdmissionObserver.NONE,
            AdmissionMetrics.OFF);
    SiteRules siteRules =
        new SiteRules(
            loaded == null ? null : loaded.config(),
            SiteRules.resolvers(beans, loader),
            admission,
            new AdaptiveGates(NanoClock.system(), gate -> {}));
    List<String> messages = new ArrayList<>();
    for (Site site : sites) {
      siteRules.build(site, messages);
      if (declared != null) {
        unknownPolicies(site, declared, messages);
      }
    }
    if (messages.isEmpty() && problems.isEmpty()) {
      createStore(beans, problems);
    }
    for (String message : messages) {
      problems.putIfAbsent(message, null);
    }
    if (!problems.isEmpty()) {
      StartLog.failed(LOG, "@Limited", problems.keySet());
    }
    problems.forEach((message, cause) -> event.addDeploymentProblem(problem(message, cause)));
  }

  /**
   * The policies an invalid configuration declares, valid or not, so that a {@code @Limited} typo
   * is reported along with its problems rather than after they are fixed.
   */
  private static Set<String> declaredPolicies(ConfigException invalid) {
    Set<String> declared = new TreeSet<>();
    try {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      declared.addAll(
          LimiterConfig.read(
                  LimiterSetup.lookup(
                      loader != null ? loader : LimiterExtension.class.getClassLoader()),
                  new ArrayList<>())
              .policies()
              .keySet());
    } catch (RuntimeException e) {
      return null; // its problems are reported; the names are checked once they are fixed
    }
    for (ConfigException problem : invalid.problems()) {
      String key = problem.key();
      int dot = key.lastIndexOf('.');
      if (key.startsWith(LimiterConfig.POLICY_PREFIX)
          && dot > LimiterConfig.POLICY_PREFIX.length()) {
        declared.add(
            key.substring(LimiterConfig.POLICY_PREFIX.length(), dot)); // a policy with a bad value
      }
    }
    return declared;
  }

  /**
   * What SiteRules reports of a name when the configuration is valid: it cannot while it is not.
   */
  private static void unknownPolicies(Site site, Set<String> declared, List<String> messages) {
    for (String name : new LinkedHashSet<>(Arrays.asList(site.limited().value()))) {
      if (!declared.contains(name)) {
        messages.add(
            site.describeDeclaration()
                + ": no policy named '"
                + name
                + "'; configured policies are "
                + declared
                + Suggestion.hint(name, declared));
      }
    }
  }

  private static DeploymentException problem(String message, Throwable cause) {
    if (cause != null) {
      return new DeploymentException(message, cause);
    }
    // The message says where the problem is; our own stack would only hide it in the log.
    DeploymentException problem = new DeploymentException(message);
    problem.setStackTrace(new StackTraceElement[0]);
    return problem;
  }

  /** Creates our store now, so that a bad store key fails the deployment too. */
  private static void createStore(BeanManager beans, Map<String, Throwable> problems) {
    Bean<?> store;
    try {
      store = beans.resolve(beans.getBeans(RateLimitStore.class));
    } catch (AmbiguousResolutionException e) {
      return; // the container reports it where the store is injected
    }
    if (store == null || store.getBeanClass() != LimiterBeans.class) {
      return; // the application's own store
    }
    try {
      ((RateLimitStore)
              beans.getReference(store, RateLimitStore.class, beans.createCreationalContext(store)))
          .timeSource();
    } catch (ConfigException e) {
      problems.put(e.getMessage(), e);
    }
  }

  /** Every business method under {@link Limited} that this deployment has. */
  List<Site> sites() {
    return List.copyOf(sites);
  }

  /**
   * The configuration, read once from MicroProfile Config with the deployment's class loader.
   *
   * @throws ConfigException naming a bad key and its value
   * @throws IllegalStateException if MicroProfile Config is not available
   */
  synchronized LimiterSetup setup() {
    if (setup == null) {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      setup = LimiterSetup.load(loader != null ? loader : LimiterExtension.class.getClassLoader());
    }
    return setup;
  }
}
