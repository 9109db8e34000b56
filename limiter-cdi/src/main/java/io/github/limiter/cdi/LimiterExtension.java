package io.github.limiter.cdi;

import io.github.limiter.ConfigException;
import io.github.limiter.RateLimitStore;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
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
import jakarta.inject.Singleton;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Registers the {@link Limited} interceptor and its beans, finds every use of {@link Limited}, and
 * fails the deployment when one names a policy, parameter or resolver that does not exist, or when
 * the {@code limiter.*} configuration is invalid: a typo fails the deployment, not the first call.
 *
 * <p>The library jar carries no {@code beans.xml}: this extension adds its beans, so it works the
 * same whether or not the container scans the jar.
 *
 * <p>The containers that run portable extensions use this one: Weld (Payara, WildFly) and Open
 * Liberty. It does what {@link LimitedBuildExtension} does on CDI Lite (Quarkus ArC), which steps
 * aside here, and two checks more at validation, through the {@link BeanManager}: that each key
 * resolver a site names exists, and that the configured store can be created.
 */
public class LimiterExtension implements Extension {

  private static final Logger LOG = Logger.getLogger(LimiterExtension.class.getName());

  private final List<Site> sites = new ArrayList<>();
  private LimiterSetup setup;

  /** What the beans read: this extension's sites and configuration. */
  private final LimiterDeployment deployment =
      new LimiterDeployment() {
        @Override
        public List<Site> sites() {
          return LimiterExtension.this.sites();
        }

        @Override
        public LimiterSetup setup() {
          return LimiterExtension.this.setup();
        }
      };

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

  void deployment(@Observes AfterBeanDiscovery event) {
    event
        .addBean()
        .beanClass(LimiterDeployment.class)
        .types(LimiterDeployment.class)
        .scope(Singleton.class)
        .createWith(context -> deployment);
  }

  void validate(@Observes AfterDeploymentValidation event, BeanManager beans) {
    DeploymentChecks.problems(
            sites,
            deployment,
            loader -> SiteRules.resolvers(beans, loader),
            found -> createStore(beans, found))
        .forEach((message, cause) -> event.addDeploymentProblem(problem(message, cause)));
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
      setup = LimiterSetup.load(LimiterDeployment.loader());
    }
    return setup;
  }
}
