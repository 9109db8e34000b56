package io.github.limiter.cdi;

import io.github.limiter.Algorithm;
import io.github.limiter.KeyResolver;
import io.github.limiter.internal.admission.AdaptiveGates;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.Counting;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.admission.RequestReader;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.admission.RuleCompiler;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.Suggestion;
import io.github.limiter.internal.http.ClientKeys;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Checks a {@link Site}'s {@link Limited} annotation against the configuration and the beans, and
 * gives the {@link Rule}s of its policies: the core's {@link RuleCompiler} compiles each policy as
 * configured, and the annotation overrides its key, permits, cost and counted calls. The extension
 * runs it at deployment to report every problem; the interceptor's runtime runs it again to get
 * each method's policy set.
 */
final class SiteRules {

  static final String PARAM = "param:";
  static final String RESOLVER = "resolver:";

  private final LimiterConfig config;
  private final KeyResolvers resolvers;
  private final RuleCompiler compiler;

  /**
   * @param config the configuration, or null when it is invalid (that problem is reported on its
   *     own, and only the checks that do not need it run)
   * @param gates the adaptive gates: the runtime's, one per policy; or, to check the sites at
   *     deployment, some of their own
   */
  SiteRules(
      LimiterConfig config, KeyResolvers resolvers, Admission admission, AdaptiveGates gates) {
    this.config = config;
    this.resolvers = resolvers;
    this.compiler =
        new RuleCompiler(
            admission,
            (policy, setting, name) -> {
              String problem = resolvers.problem(name);
              if (problem != null) {
                throw new Unresolvable(problem);
              }
              return lazy(name);
            },
            gates);
  }

  /** Why a resolver that a policy's setting names cannot be used: a problem to report. */
  private static final class Unresolvable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unresolvable(String problem) {
      super(problem, null, false, false);
    }
  }

  /**
   * The rules of {@code site}, or null after adding to {@code problems} one message per problem,
   * each naming the annotation, the bean class and method, and the bad value.
   */
  List<Rule> build(Site site, Collection<String> problems) {
    Limited limited = site.limited();
    int before = problems.size();
    String declaration = site.describeDeclaration();
    List<String> names = Arrays.asList(limited.value());
    if (names.isEmpty()) {
      problems.add(declaration + ": names no policy" + configured());
    }
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      if (!seen.add(name)) {
        problems.add(declaration + ": names policy '" + name + "' twice");
      }
    }
    if (limited.permits() < 0) {
      problems.add(
          declaration
              + ": permits must be 0 (the policy's configured permits) or more, was "
              + limited.permits());
    }
    if (!limited.criticality().isEmpty() && Criticality.find(limited.criticality()) == null) {
      problems.add(
          declaration
              + ": criticality: expected critical, default or sheddable (or leave it out for the"
              + " policy's configured criticality), was '"
              + limited.criticality()
              + "'");
    }
    boolean overridden = !limited.key().isEmpty();
    RequestReader override = overridden ? override(site, problems) : null;
    boolean costed = !limited.cost().isEmpty();
    RequestReader cost = costed ? cost(site, problems) : null;
    List<Rule> rules = new ArrayList<>();
    if (config != null) {
      for (String name : new LinkedHashSet<>(names)) {
        Optional<PolicyConfig> policy = config.policy(name);
        if (policy.isEmpty()) {
          problems.add(
              declaration
                  + ": no policy named '"
                  + name
                  + "'"
                  + configured()
                  + Suggestion.hint(name, config.policies().keySet()));
          continue;
        }
        RequestReader key =
            overridden
                ? override
                : configured(
                    site, policy.get(), "key", policy.get().key(), compiler::key, problems);
        long permits = limited.permits() > 0 ? limited.permits() : policy.get().permits();
        RequestReader costOf =
            costed
                ? cost
                : configured(
                    site,
                    policy.get(),
                    "cost",
                    policy.get().cost().source(),
                    compiler::cost,
                    problems);
        Counting counts = counts(site, policy.get(), problems);
        RequestReader planOf =
            configured(
                site,
                policy.get(),
                "plan-source",
                RuleCompiler.planResolverSource(policy.get()),
                compiler::plan,
                problems);
        RequestReader criticalityOf =
            configured(
                site,
                policy.get(),
                "criticality",
                policy.get().overload().criticality(),
                compiler::criticality,
                problems);
        rules.add(
            compiler.compile(policy.get(), key, permits, costOf, counts, planOf, criticalityOf));
      }
    }
    if (Criticality.find(limited.criticality()) != null
        && !rules.isEmpty()
        && rules.stream().noneMatch(Rule::releases)) {
      problems.add(
          declaration
              + ": criticality: applies to concurrency limits, and none of "
              + names
              + " is one, was '"
              + limited.criticality()
              + "'");
    }
    return problems.size() == before && config != null ? rules : null;
  }

  /** The criticality {@code @Limited} gives its calls; null: their policies'. */
  static Criticality criticality(Site site) {
    return Criticality.find(site.limited().criticality());
  }

  private String configured() {
    return config == null ? "" : "; configured policies are " + config.policies().keySet();
  }

  /** The key function of {@code @Limited(key = ...)}. */
  private RequestReader override(Site site, Collection<String> problems) {
    String text = site.limited().key().trim();
    if (text.startsWith(PARAM)) {
      return parameter(site, text.substring(PARAM.length()).trim(), problems);
    }
    KeySource source;
    try {
      source = KeySource.parse(text);
    } catch (IllegalArgumentException e) {
      problems.add(
          site.describeDeclaration()
              + ": key: expected param:<name>, param:<index>, resolver:<name>,"
              + " header:<name>, remote-address, principal or constant (or leave it out for the policy's"
              + " configured key), was '"
              + site.limited().key()
              + "'");
      return null;
    }
    String problem =
        source.kind() == KeySource.Kind.RESOLVER ? resolvers.problem(source.argument()) : null;
    if (problem != null) {
      problems.add(site.describeDeclaration() + ": key '" + text + "': " + problem);
      return null;
    }
    return compiler.key(
        source, source.kind() == KeySource.Kind.RESOLVER ? lazy(source.argument()) : null);
  }

  /**
   * The reader the compiler gives for the policy's setting {@code what} (whose value is {@code
   * value}); null after adding the problem if the resolver it names cannot be used.
   */
  private static RequestReader configured(
      Site site,
      PolicyConfig policy,
      String what,
      Object value,
      Function<PolicyConfig, RequestReader> reader,
      Collection<String> problems) {
    try {
      return reader.apply(policy);
    } catch (Unresolvable e) {
      problems.add(setting(site, policy, what, value) + ", but " + e.getMessage());
      return null;
    }
  }

  /** How a problem with the policy's setting {@code what} begins: the site and the setting. */
  private static String setting(Site site, PolicyConfig policy, String what, Object value) {
    return site.describeDeclaration()
        + ": policy '"
        + policy.name()
        + "' has "
        + LimiterConfig.POLICY_PREFIX
        + policy.name()
        + "."
        + what
        + "="
        + value;
  }

  /**
   * Which calls count: {@code @Limited(countOn = ...)}, else every call. A policy that counts by
   * response status cannot be applied here, where there is no response.
   */
  private static Counting counts(Site site, PolicyConfig policy, Collection<String> problems) {
    Class<? extends Throwable>[] countOn = site.limited().countOn();
    if (countOn.length > 0 && policy.policy().algorithm() == Algorithm.CONCURRENCY) {
      problems.add(
          site.describeDeclaration()
              + ": countOn: policy '"
              + policy.name()
              + "' is a concurrency limit, whose permit comes back whenever the call ends, so"
              + " there is nothing to count; leave countOn out");
      return Counting.ALL;
    }
    if (countOn.length > 0) {
      return Counting.byFailure(Set.of(countOn));
    }
    if (!policy.count().all()) {
      problems.add(
          setting(site, policy, "count", policy.count())
              + ", a response status, which only the servlet filter sees; use @Limited(countOn ="
              + " ...) to count calls by the exception they throw");
    }
    return Counting.ALL;
  }

  /** The cost function of {@code @Limited(cost = "param:...")}. */
  private RequestReader cost(Site site, Collection<String> problems) {
    String text = site.limited().cost().trim();
    if (!text.startsWith(PARAM)) {
      problems.add(
          site.describeDeclaration()
              + ": cost: expected param:<name> or param:<index> (or leave it out for the policy's"
              + " configured cost), was '"
              + site.limited().cost()
              + "'");
      return null;
    }
    int index = parameterIndex(site, "cost", text.substring(PARAM.length()).trim(), problems);
    if (index < 0) {
      return null;
    }
    Class<?> type = site.method().getParameters()[index].getType();
    boolean numeric =
        type == int.class
            || type == long.class
            || type == short.class
            || type == byte.class
            || Number.class.isAssignableFrom(type)
            || CharSequence.class.isAssignableFrom(type);
    if (!numeric) {
      problems.add(
          site.describe()
              + ": cost: parameter "
              + index
              + " ("
              + type.getTypeName()
              + ") is not a number; use an integer parameter, or a text holding one");
      return null;
    }
    int at = index;
    return call -> {
      Object value = call.unwrap(InvocationContext.class).getParameters()[at];
      return value == null ? null : value.toString();
    };
  }

  private RequestReader parameter(Site site, String reference, Collection<String> problems) {
    int index = parameterIndex(site, "key", reference, problems);
    if (index < 0) {
      return null;
    }
    Class<?> type = site.method().getParameters()[index].getType();
    if (!identifies(type)) {
      problems.add(
          site.describe()
              + ": key: parameter "
              + index
              + " ("
              + type.getTypeName()
              + ") does not"
              + " override toString(), so every call would get a key of its own; use a parameter whose"
              + " toString() names the caller, or key = \"resolver:<name>\"");
      return null;
    }
    int at = index;
    return call -> {
      Object value = call.unwrap(InvocationContext.class).getParameters()[at];
      return value == null ? null : ClientKeys.parameter(String.valueOf(value));
    };
  }

  /**
   * The index of the parameter that {@code reference} (a name or an index) names for {@code what};
   * -1 after adding the problem.
   */
  private static int parameterIndex(
      Site site, String what, String reference, Collection<String> problems) {
    Method method = site.method();
    Parameter[] parameters = method.getParameters();
    int index;
    if (reference.matches("\\d{1,9}")) {
      index = Integer.parseInt(reference);
      if (index >= parameters.length) {
        problems.add(
            site.describe()
                + ": "
                + what
                + ": no parameter at index "
                + index
                + "; the method has "
                + (parameters.length == 0
                    ? "no parameters"
                    : parameters.length + " (indexes 0 to " + (parameters.length - 1) + ")"));
        return -1;
      }
      return index;
    }
    for (int i = 0; i < parameters.length; i++) {
      if (parameters[i].isNamePresent() && parameters[i].getName().equals(reference)) {
        return i;
      }
    }
    boolean named = parameters.length == 0 || parameters[0].isNamePresent();
    problems.add(
        site.describe()
            + ": "
            + what
            + ": no parameter named '"
            + reference
            + "'; "
            + (named
                ? "parameters are " + Arrays.stream(parameters).map(Parameter::getName).toList()
                : "parameter names are not available: compile with -parameters, or use param:<index>"));
    return -1;
  }

  /**
   * Whether String.valueOf of a {@code type} argument can identify a caller: not Object's identity
   * text.
   */
  private static boolean identifies(Class<?> type) {
    if (type.isPrimitive()) {
      return true;
    }
    try {
      return type.getMethod("toString").getDeclaringClass() != Object.class;
    } catch (NoSuchMethodException e) {
      return false; // an interface that does not declare toString()
    }
  }

  /**
   * The {@link KeyResolver}s of the application: its beans, then its ServiceLoader services; looked
   * up once, on first use.
   */
  static KeyResolvers resolvers(BeanManager beans, ClassLoader loader) {
    return KeyResolvers.of(
        () -> {
          List<KeyResolver> references = new ArrayList<>();
          for (Bean<?> bean : beans.getBeans(KeyResolver.class, Any.Literal.INSTANCE)) {
            references.add(
                (KeyResolver)
                    beans.getReference(
                        bean, KeyResolver.class, beans.createCreationalContext(bean)));
          }
          return references;
        },
        loader);
  }

  /** The resolver called {@code name}, looked up on first use, after deployment, and kept. */
  private Supplier<KeyResolver> lazy(String name) {
    KeyResolver[] resolver = new KeyResolver[1];
    return () -> {
      KeyResolver current = resolver[0];
      if (current == null) {
        current = resolvers.get("resolver:" + name, name);
        resolver[0] = current;
      }
      return current;
    };
  }
}
