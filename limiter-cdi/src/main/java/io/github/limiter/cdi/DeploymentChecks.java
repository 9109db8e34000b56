package io.github.limiter.cdi;

import io.github.limiter.ConfigException;
import io.github.limiter.NanoClock;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The deployment-time checks of every {@link Limited} method and of the {@code limiter.*}
 * configuration, shared by the portable {@link LimiterExtension} and the {@link
 * LimitedBuildExtension}: a typo fails the deployment (or the Quarkus build), not the first call.
 */
final class DeploymentChecks {

  private static final Logger LOG = Logger.getLogger(DeploymentChecks.class.getName());

  private DeploymentChecks() {}

  /**
   * The problems of {@code sites} under the deployment's configuration, by message (a class-level
   * problem once, not once per method), each with its cause or null; empty when they are valid.
   *
   * @param resolvers the key resolvers, by the class loader of the configuration
   * @param store checks the store once everything else is valid, adding its problems
   */
  static Map<String, Throwable> problems(
      List<Site> sites,
      LimiterDeployment deployment,
      Function<ClassLoader, KeyResolvers> resolvers,
      java.util.function.Consumer<Map<String, Throwable>> store) {
    Map<String, Throwable> problems = new LinkedHashMap<>();
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
    if (!problems.isEmpty()) {
      StartLog.failed(LOG, "@Limited", problems.keySet());
    }
    return problems;
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
