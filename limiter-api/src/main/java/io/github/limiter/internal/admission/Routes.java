package io.github.limiter.internal.admission;

import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The configured routes of an HTTP adapter with their policy sets: which policies apply to a path
 * and method.
 */
public final class Routes {

  private final Route[] routes;
  private final PolicySet[] sets;

  /**
   * {@code routes}, each with the rules of its policies, taken from {@code rules} by name, and its
   * criticality.
   */
  public Routes(
      List<Route> routes,
      Map<String, Rule> rules,
      BiFunction<List<Rule>, Criticality, PolicySet> bind) {
    this.routes = routes.toArray(new Route[0]);
    this.sets = new PolicySet[this.routes.length];
    for (int i = 0; i < sets.length; i++) {
      Route route = this.routes[i];
      sets[i] = bind.apply(route.policies().stream().map(rules::get).toList(), route.criticality());
    }
  }

  /**
   * The policies of every route matching {@code path} and {@code method}: one route's set as built,
   * or, when several match, each of their policies once, in route order.
   */
  public PolicySet match(String path, String method) {
    PolicySet first = null;
    List<PolicySet> several = null;
    for (int i = 0; i < routes.length; i++) {
      if (routes[i].matches(path, method)) {
        if (first == null) {
          first = sets[i];
        } else {
          several = several != null ? several : new ArrayList<>(List.of(first));
          several.add(sets[i]);
        }
      }
    }
    return several != null ? PolicySet.union(several) : first != null ? first : PolicySet.NONE;
  }
}
