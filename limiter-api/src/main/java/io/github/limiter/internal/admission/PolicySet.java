package io.github.limiter.internal.admission;

import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.PolicyConfig;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;

/**
 * The rules of one place (a route, a {@code @Limited} method) with their bound policies: built
 * once, so that a request only evaluates it.
 */
public final class PolicySet {

  public static final PolicySet NONE = new PolicySet(new Rule[0], List.of(), null, null, null);

  final Rule[] rules;
  final List<PolicyLimiter> limiters;
  final List<Policy> policies;

  /** The names of all rules: what was charged when every policy decided, ready to hand out. */
  final List<String> names;

  final IntToLongFunction permitsAt;
  final IntPredicate enforcedAt;

  /** Whether some rule's cost is found per request; if none is, no request allocates for costs. */
  final boolean costsVary;

  /**
   * Whether some rule counts only some requests, or holds permits while a request runs: then its
   * requests are settled when they end.
   */
  final boolean settles;

  /**
   * Per rule, each plan's bound policy by plan name; null for a rule without plans, and null
   * altogether when no rule has plans.
   */
  final List<Map<String, PolicyLimiter>> plans;

  /**
   * The criticality of this place's requests (a route's, a {@code @Limited} method's), when a
   * request's own source names none; null: its policies'.
   */
  final Criticality criticality;

  /** Whether some rule is a concurrency limit: then a request's criticality is found. */
  final boolean sheds;

  /** The clock of the first adaptive rule's gate, to time its requests; null if none is. */
  final NanoClock adaptiveClock;

  /** Binds a policy, for the versions of a policy in a request's quota zone; null for NONE. */
  private final Function<Policy, PolicyLimiter> bind;

  /** This set's policies in the calendars of requests' quota zones. */
  private final RequestCalendars calendars;

  private PolicySet(
      Rule[] rules,
      List<PolicyLimiter> limiters,
      List<Map<String, PolicyLimiter>> plans,
      Criticality criticality,
      Function<Policy, PolicyLimiter> bind) {
    this.bind = bind;
    this.calendars = new RequestCalendars(bind);
    this.rules = rules;
    this.limiters = limiters;
    this.policies = List.of(rules).stream().map(Rule::policy).toList();
    this.names = List.of(rules).stream().map(Rule::name).toList();
    this.permitsAt = i -> rules[i].permits();
    this.enforcedAt = i -> !rules[i].dryRun();
    this.costsVary = List.of(rules).stream().anyMatch(rule -> rule.cost() != null);
    this.settles =
        List.of(rules).stream().anyMatch(rule -> rule.counts() != Counting.ALL || rule.releases());
    this.plans = plans;
    this.criticality = criticality;
    this.sheds = List.of(rules).stream().anyMatch(Rule::releases);
    this.adaptiveClock =
        List.of(rules).stream()
            .filter(rule -> rule.gate() != null)
            .map(rule -> rule.gate().clock())
            .findFirst()
            .orElse(null);
  }

  /**
   * {@code rules}, each policy bound by {@code bind} (which should bind each policy once), but an
   * adaptive one, which decides with its node's gate.
   */
  public static PolicySet of(List<Rule> rules, Function<Policy, PolicyLimiter> bind) {
    return of(rules, bind, null);
  }

  /**
   * As {@link #of(List, Function)}, for a place whose requests are of {@code criticality} when
   * their own source names none (null: their policies').
   */
  public static PolicySet of(
      List<Rule> rules, Function<Policy, PolicyLimiter> bind, Criticality criticality) {
    return rules.isEmpty()
        ? NONE
        : new PolicySet(
            rules.toArray(new Rule[0]),
            rules.stream()
                .map(
                    rule -> rule.gate() != null ? rule.gate().limiter() : bind.apply(rule.policy()))
                .toList(),
            plans(rules, bind),
            criticality,
            bind);
  }

  /** Each rule's plans, bound (null for a rule without); null when no rule has any. */
  private static List<Map<String, PolicyLimiter>> plans(
      List<Rule> rules, Function<Policy, PolicyLimiter> bind) {
    if (rules.stream().noneMatch(rule -> rule.config().plans().any())) {
      return null;
    }
    List<Map<String, PolicyLimiter>> plans = new ArrayList<>();
    for (Rule rule : rules) {
      PolicyConfig.Plans configured = rule.config().plans();
      Map<String, PolicyLimiter> bound = null;
      if (configured.any()) {
        bound = new HashMap<>();
        for (var plan : configured.byName().entrySet()) {
          bound.put(plan.getKey(), bind.apply(plan.getValue()));
        }
      }
      plans.add(bound);
    }
    return plans;
  }

  /**
   * Every rule of {@code sets}, each once (by identity), in order: for a request that several
   * routes match.
   */
  public static PolicySet union(List<PolicySet> sets) {
    List<Rule> rules = new ArrayList<>();
    List<PolicyLimiter> limiters = new ArrayList<>();
    List<Map<String, PolicyLimiter>> plans = new ArrayList<>();
    boolean planned = false;
    Criticality criticality = null;
    Function<Policy, PolicyLimiter> bind = null;
    for (PolicySet set : sets) {
      criticality = criticality != null ? criticality : set.criticality;
      bind = bind != null ? bind : set.bind;
      for (int i = 0; i < set.rules.length; i++) {
        if (!rules.contains(set.rules[i])) {
          rules.add(set.rules[i]);
          limiters.add(set.limiters.get(i));
          Map<String, PolicyLimiter> bound = set.plans == null ? null : set.plans.get(i);
          plans.add(bound);
          planned |= bound != null;
        }
      }
    }
    if (rules.isEmpty()) {
      return NONE;
    }
    return new PolicySet(
        rules.toArray(new Rule[0]),
        List.copyOf(limiters),
        planned ? plans : null,
        criticality,
        bind);
  }

  /**
   * {@code bound}'s policy in the calendar of a request's quota zone: see {@link RequestCalendars}.
   */
  PolicyLimiter inCalendar(PolicyLimiter bound, ZoneId zone, int anchorDay) {
    return calendars.inCalendar(bound, zone, anchorDay);
  }

  /**
   * Whether {@link Admission#finish} has something to do for every request of this set (a policy
   * counts only some requests); it has for a request that reported an actual cost, too.
   */
  public boolean settles() {
    return settles;
  }

  /** Whether every policy is still in the version it was deployed in: no limit changed live. */
  boolean asDeployed() {
    for (int i = 0; i < rules.length; i++) {
      if (limiters.get(i).policy() != policies.get(i)) {
        return false;
      }
    }
    return true;
  }

  public int size() {
    return rules.length;
  }

  public Rule rule(int index) {
    return rules[index];
  }

  /** The policies in order, as the renderer takes them. */
  public List<Policy> policies() {
    return policies;
  }
}
