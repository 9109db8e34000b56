package io.github.limiter.internal.insight;

import io.github.limiter.Policy;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a policy limits, as an operator reads it: the routes and {@code @Limited} methods that name
 * it, and where its keys come from there. Built once by each adapter from its places.
 *
 * @param routes the filter's routes; each list sorted, without repeats, as {@code /api/*} or {@code
 *     GET,POST /api/*}
 * @param sites the {@code @Limited} methods, as {@code com.acme.Orders#place}
 * @param keys the key sources as configuration writes them ({@code header:X-Api-Key}); several when
 *     a method names its own ({@code @Limited(key = ...)})
 * @param onMissingKey what a request without a key gets, as configuration writes it
 */
public record PolicyScope(
    List<String> routes, List<String> sites, List<String> keys, String onMissingKey) {

  public PolicyScope {
    routes = List.copyOf(new TreeSet<>(routes));
    sites = List.copyOf(new TreeSet<>(sites));
    keys = List.copyOf(new TreeSet<>(keys));
  }

  /** This scope and {@code other}'s places together: one policy seen by two adapters. */
  public PolicyScope plus(PolicyScope other) {
    return new PolicyScope(
        union(routes, other.routes),
        union(sites, other.sites),
        union(keys, other.keys),
        onMissingKey);
  }

  /** The scope of each policy that {@code config}'s routes name, a plan's policy with its own. */
  public static Map<String, PolicyScope> ofRoutes(LimiterConfig config) {
    Map<String, PolicyScope> scopes = new TreeMap<>();
    for (Route route : config.routes()) {
      String methods = String.join(",", new TreeSet<>(route.methods()));
      String where = methods.isEmpty() ? route.pattern() : methods + " " + route.pattern();
      for (String name : route.policies()) {
        PolicyConfig policy = config.policies().get(name);
        if (policy != null) {
          add(scopes, policy, List.of(where), List.of(), policy.key().toString());
        }
      }
    }
    return scopes;
  }

  /**
   * Adds {@code policy}'s place {@code site} (a method, as {@code com.acme.Orders#place}), keyed by
   * {@code key} there, to {@code scopes}.
   */
  public static void addSite(
      Map<String, PolicyScope> scopes, PolicyConfig policy, String site, String key) {
    add(scopes, policy, List.of(), List.of(site), key);
  }

  private static void add(
      Map<String, PolicyScope> scopes,
      PolicyConfig policy,
      List<String> routes,
      List<String> sites,
      String key) {
    PolicyScope scope =
        new PolicyScope(routes, sites, List.of(key), policy.onMissingKey().configName());
    scopes.merge(policy.name(), scope, PolicyScope::plus);
    for (Policy plan : policy.plans().byName().values()) {
      scopes.merge(plan.name(), scope, PolicyScope::plus);
    }
  }

  private static List<String> union(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
