package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.admission.RuleCompiler;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the filter finds the key resolvers its routed policies name: the CDI beans when the CDI API
 * is present, then the ServiceLoader services. A wrong name fails the filter's start, naming the
 * key and the value.
 */
final class ResolverDiscovery {

  private static final String CDI_CLASS = "jakarta.enterprise.inject.spi.CDI";

  private ResolverDiscovery() {}

  /**
   * Finds each resolver now, on the filter's start, so that a wrong name fails there; the beans and
   * services are looked up on the first one asked for.
   */
  static RuleCompiler.ResolverLookup atStart(ClassLoader loader) {
    return KeyResolvers.of(() -> cdiBeans(loader), loader);
  }

  /**
   * Checks the resolver names of {@code config} at start-up, before CDI may be running: only when
   * the CDI API is absent, so that every resolver must be a ServiceLoader service.
   */
  static void checkWithoutCdi(LimiterConfig config, ClassLoader loader) {
    if (hasCdi(loader)) {
      return;
    }
    Set<String> routed = routedPolicies(config);
    KeyResolvers services = KeyResolvers.services(loader);
    for (PolicyConfig policy : config.policies().values()) {
      if (routed.contains(policy.name())) {
        RuleCompiler.findResolvers(policy, services);
      }
    }
  }

  /**
   * The policies some {@code limiter.route.*} names: only their {@code resolver:NAME} must resolve
   * here. A policy on no route is applied by other adapters (a {@code @Limited} method).
   */
  static Set<String> routedPolicies(LimiterConfig config) {
    Set<String> routed = new HashSet<>();
    config.routes().forEach(route -> routed.addAll(route.policies()));
    return routed;
  }

  /**
   * One rule per routed policy. On no route, the filter never keys a policy: its resolvers are the
   * other adapters' business.
   */
  static Map<String, Rule> routedRules(LimiterConfig config, RuleCompiler compiler) {
    Set<String> routed = routedPolicies(config);
    Map<String, Rule> rules = new LinkedHashMap<>();
    for (PolicyConfig policy : config.policies().values()) {
      if (routed.contains(policy.name())) {
        rules.put(policy.name(), compiler.compile(policy));
      }
    }
    return rules;
  }

  static boolean hasCdi(ClassLoader loader) {
    try {
      Class.forName(CDI_CLASS, false, ResolverDiscovery.class.getClassLoader());
      Class.forName(CDI_CLASS, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static List<KeyResolver> cdiBeans(ClassLoader loader) {
    return hasCdi(loader) ? CdiLookups.resolvers() : List.of();
  }
}
