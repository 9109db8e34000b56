package io.github.limiter.cdi;

import io.github.limiter.ConfigException;
import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.admission.AdaptiveGates;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.AdmissionMetrics;
import io.github.limiter.internal.admission.AdmissionObserver;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.Suggestion;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.internal.log.StartLog;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The checks of every {@link Limited} method and of the {@code limiter.*} configuration: at
 * deployment by the {@link LimitedBuildExtension} (on Quarkus, at the build when it has the
 * configuration); with what needs the application's beans, at validation by the portable {@link
 * LimiterExtension} where the container runs one, and as the application starts. A typo fails the
 * deployment or the start, not the first call.
 */
final class DeploymentChecks {

  private static final Logger LOG = Logger.getLogger(DeploymentChecks.class.getName());

  private DeploymentChecks() {}

  /**
   * The problems of the deployment's sites under its configuration, by message (a class-level
   * problem once, not once per method), each with its cause or null; empty when they are valid.
   *
   * @param resolvers the key resolvers, by the class loader of the configuration
   * @param store checks the store once everything else is valid, adding its problems
   */
  private static Map<String, Throwable> problems(
      LimiterDeployment deployment,
      Function<ClassLoader, KeyResolvers> resolvers,
      Consumer<Map<String, Throwable>> store) {
    Map<String, Throwable> problems = new LinkedHashMap<>();
    List<Site> sites = deployment.sites();
    if (sites.isEmpty()) {
      return problems;
    }
    LimiterSetup loaded = null;
    Set<String> declared = null;
    try {
      loaded = deployment.setup();
    } catch (ConfigException e) {
      // Every configuration problem, each on its own, and the policies the configuration names all
      // the same.
      e.problems().forEach(problem -> problems.put(problem.getMessage(), problem));
      declared = declaredPolicies(e);
    } catch (IllegalStateException e) {
      problems.put(e.getMessage(), e);
    }
    ClassLoader loader = loaded == null ? LimiterDeployment.loader() : loaded.loader();
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
            resolvers.apply(loader),
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
      store.accept(problems);
    }
    for (String message : messages) {
      problems.putIfAbsent(message, null);
    }
    return problems;
  }

  /**
   * The problems of a Build Compatible Extension's validation, each a deployment problem; the one
   * failure line is logged if there are any.
   */
  static List<DeploymentException> atValidation(LimiterDeployment deployment) {
    return reported(withoutBeans(deployment));
  }

  /**
   * The problems that only the application's beans show, at deployment validation, where a portable
   * extension reaches them; none while {@link #atValidation} has some, which it reports.
   */
  static List<DeploymentException> atValidationWithBeans(
      LimiterDeployment deployment, BeanManager beans) {
    if (!withoutBeans(deployment).isEmpty()) {
      return List.of();
    }
    return reported(withBeans(deployment, beans));
  }

  /**
   * Every check again as the application starts, now with its beans: that the key resolvers that
   * sites name exist (a resolver's name is what its instance says), and that the configured store
   * can be created, so that a bad store key fails the start too.
   *
   * @throws DeploymentException whose message is the one failure line, naming every problem
   */
  static void atStart(LimiterDeployment deployment, BeanManager beans) {
    Map<String, Throwable> problems = withBeans(deployment, beans);
    if (problems.isEmpty()) {
      return;
    }
    String line = StartLog.failed(LOG, "@Limited", problems.keySet());
    DeploymentException failure = null;
    for (Throwable cause : problems.values()) {
      if (cause == null) {
        continue;
      }
      if (failure == null) {
        failure = new DeploymentException(line, cause);
      } else {
        failure.addSuppressed(cause);
      }
    }
    throw failure == null ? problem(line, null) : failure;
  }

  /** The checks a Build Compatible Extension can make: every key resolver passes, no store. */
  private static Map<String, Throwable> withoutBeans(LimiterDeployment deployment) {
    return problems(deployment, loader -> KeyResolvers.unknownUntilStart(), unchecked -> {});
  }

  private static Map<String, Throwable> withBeans(LimiterDeployment deployment, BeanManager beans) {
    return problems(
        deployment,
        loader -> SiteRules.resolvers(beans, loader),
        found -> createStore(beans, found));
  }

  /** {@code problems} as deployment problems, after logging their one failure line. */
  private static List<DeploymentException> reported(Map<String, Throwable> problems) {
    if (!problems.isEmpty()) {
      StartLog.failed(LOG, "@Limited", problems.keySet());
    }
    List<DeploymentException> failures = new ArrayList<>();
    problems.forEach((message, cause) -> failures.add(problem(message, cause)));
    return failures;
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

  /** Creates our store now, so that a bad store key fails the start, not the first call. */
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

  /**
   * The policies an invalid configuration declares, valid or not, so that a {@code @Limited} typo
   * is reported along with its problems rather than after they are fixed.
   */
  private static Set<String> declaredPolicies(ConfigException invalid) {
    Set<String> declared = new TreeSet<>();
    try {
      declared.addAll(
          LimiterConfig.read(LimiterSetup.lookup(LimiterDeployment.loader()), new ArrayList<>())
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
}
