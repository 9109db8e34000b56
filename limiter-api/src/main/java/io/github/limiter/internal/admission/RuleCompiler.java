package io.github.limiter.internal.admission;

import io.github.limiter.KeyResolver;
import io.github.limiter.NanoClock;
import io.github.limiter.RequestView;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.QuotaCalendar;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.http.ClientKeys;
import java.util.function.Supplier;

/**
 * Turns a configured policy into the {@link Rule} an adapter applies, in this one place, the same
 * way for every adapter: the readers of its key, its cost, its plan and its criticality. Each
 * adapter says only how it finds a resolver that a setting names ({@link ResolverLookup});
 * {@code @Limited} then replaces what its annotation overrides.
 */
public final class RuleCompiler {

  /** How an adapter finds the key resolver that one of a policy's settings names. */
  @FunctionalInterface
  public interface ResolverLookup {

    /**
     * The resolver {@code name} that {@code limiter.policy.<policy>.<setting>} names, as it is to
     * be asked on each call.
     *
     * @throws RuntimeException saying why, when there is no such resolver (the servlet filter: a
     *     {@link io.github.limiter.ConfigException}; {@code @Limited}: a problem to report)
     */
    Supplier<KeyResolver> find(PolicyConfig policy, String setting, String name);
  }

  private final ClientAddress address;
  private final ResolverLookup resolvers;
  private final AdaptiveGates gates;

  /** A compiler with gates of its own: to check a configuration, or to test. */
  public RuleCompiler(Admission admission, ResolverLookup resolvers) {
    this(admission, resolvers, NanoClock.system());
  }

  /**
   * A compiler with gates of its own, whose adaptive policies measure latency with {@code clock}.
   */
  public RuleCompiler(Admission admission, ResolverLookup resolvers, NanoClock clock) {
    this(admission, resolvers, new AdaptiveGates(clock, gate -> {}));
  }

  /** A compiler whose adaptive policies pass {@code gates}: the runtime's, one per policy. */
  public RuleCompiler(Admission admission, ResolverLookup resolvers, AdaptiveGates gates) {
    this.address = admission.address();
    this.resolvers = resolvers;
    this.gates = gates;
  }

  /**
   * The rule of {@code policy} as configured: its key, permits, cost, counted statuses and plan.
   */
  public Rule compile(PolicyConfig policy) {
    RequestReader key = key(policy);
    RequestReader cost = cost(policy);
    RequestReader plan = plan(policy);
    return compile(
        policy,
        key,
        policy.permits(),
        cost,
        Counting.byStatus(policy.count()),
        plan,
        criticality(policy));
  }

  /**
   * The rule of {@code policy} at a place that reads its requests its own way ({@code @Limited}'s
   * annotation over the configuration): the given readers, and the policy's gate and quota
   * calendar.
   */
  public Rule compile(
      PolicyConfig policy,
      RequestReader key,
      long permits,
      RequestReader cost,
      Counting counts,
      RequestReader plan,
      RequestReader criticality) {
    return new Rule(
        policy, key, permits, cost, counts, plan, criticality, gate(policy), quota(policy));
  }

  /**
   * The reader of a request's zone and anchor day for {@code policy}'s calendar quotas; null when
   * no resolver answers them.
   */
  public QuotaReader quota(PolicyConfig policy) {
    QuotaCalendar calendar = policy.quota();
    if (!calendar.perRequest()) {
      return null;
    }
    return new QuotaReader(
        calendar,
        reader(policy, "quota.time-zone", calendar.zoneResolver()),
        reader(policy, "quota.anchor-day", calendar.anchorResolver()));
  }

  private RequestReader reader(PolicyConfig policy, String setting, String resolverName) {
    if (resolverName == null) {
      return null;
    }
    Supplier<KeyResolver> resolver =
        resolver(policy, setting, new KeySource(KeySource.Kind.RESOLVER, resolverName));
    return request -> resolver.get().resolve(request);
  }

  /**
   * The reader of a request's criticality ({@code limiter.policy.NAME.criticality}); null when it
   * names a level rather than a source.
   */
  public RequestReader criticality(PolicyConfig policy) {
    KeySource source = policy.overload().criticality().source();
    if (source == null) {
      return null;
    }
    Supplier<KeyResolver> resolver = resolver(policy, "criticality", source);
    String argument = source.argument();
    // A header is believed only when the direct peer is a trusted proxy (a client must not make
    // itself critical); a resolver is asked on each call.
    return source.kind() == KeySource.Kind.HEADER
        ? request -> trustedHeader(request, argument)
        : request -> resolver.get().resolve(request);
  }

  /** The node's gate of an adaptive policy, the same for every place; null for another policy. */
  public AdaptiveGate gate(PolicyConfig policy) {
    return gates.gate(policy);
  }

  /** The reader of {@code policy}'s configured key ({@code limiter.policy.NAME.key}). */
  public RequestReader key(PolicyConfig policy) {
    return key(policy.key(), resolver(policy, "key", policy.key()));
  }

  /**
   * The reader of {@code source}, a key given elsewhere than in the configuration; {@code resolver}
   * supplies the resolver of a {@code resolver:} source, asked on each call.
   */
  public RequestReader key(KeySource source, Supplier<KeyResolver> resolver) {
    String argument = source.argument();
    return switch (source.kind()) {
      case CONSTANT -> request -> ClientKeys.CONSTANT;
      case REMOTE_ADDRESS -> address::key;
      // Outside an HTTP request, every web source is the one constant key.
      case HEADER ->
          request ->
              request.remoteAddress() == null
                  ? ClientKeys.CONSTANT
                  : ClientKeys.header(request.header(argument));
      case PRINCIPAL ->
          request ->
              request.remoteAddress() == null
                  ? ClientKeys.CONSTANT
                  : ClientKeys.principal(request.principal());
      case RESOLVER -> request -> ClientKeys.resolver(resolver.get().resolve(request));
    };
  }

  /** Header {@code name}, believed only when the direct peer is a trusted proxy; else null. */
  private String trustedHeader(RequestView request, String name) {
    String peer = request.remoteAddress();
    return peer != null && address.isTrustedPeer(peer) ? request.header(name) : null;
  }

  /**
   * The reader of {@code policy}'s cost as text ({@code limiter.policy.NAME.cost}); null if it has
   * none, and requests cost the static permits. A resolver is asked on each call.
   */
  public RequestReader cost(PolicyConfig policy) {
    KeySource source = policy.cost().source();
    if (source == null) {
      return null;
    }
    Supplier<KeyResolver> resolver = resolver(policy, "cost", source);
    String argument = source.argument();
    return source.kind() == KeySource.Kind.HEADER
        ? request -> request.header(argument)
        : request -> resolver.get().resolve(request);
  }

  /**
   * The reader of {@code policy}'s plan name ({@code plan-source}); null if it has no plans: the
   * first configured role the principal has; a resolver's answer, asked on each call; or a header,
   * believed only when the direct peer is a trusted proxy (a client must not choose its own plan).
   */
  public RequestReader plan(PolicyConfig policy) {
    Supplier<KeyResolver> resolver = resolver(policy, "plan-source", planResolverSource(policy));
    PolicyConfig.Plans plans = policy.plans();
    if (!plans.any()) {
      return null;
    }
    PolicyConfig.PlanSource source = plans.source();
    return switch (source.kind()) {
      case ROLE ->
          request -> {
            for (String role : source.roles()) {
              if (request.isUserInRole(role)) {
                return role;
              }
            }
            return null;
          };
      case HEADER -> request -> trustedHeader(request, source.argument());
      case RESOLVER -> request -> resolver.get().resolve(request);
    };
  }

  /**
   * Finds, through {@code resolvers}, every resolver that {@code policy} names, in the order {@link
   * #compile} does: to check a configuration without compiling it.
   */
  public static void findResolvers(PolicyConfig policy, ResolverLookup resolvers) {
    find(resolvers, policy, "key", policy.key());
    find(resolvers, policy, "cost", policy.cost().source());
    find(resolvers, policy, "plan-source", planResolverSource(policy));
    find(resolvers, policy, "criticality", policy.overload().criticality().source());
    find(resolvers, policy, "quota.time-zone", quotaSource(policy.quota().zoneResolver()));
    find(resolvers, policy, "quota.anchor-day", quotaSource(policy.quota().anchorResolver()));
  }

  private static KeySource quotaSource(String resolverName) {
    return resolverName == null ? null : new KeySource(KeySource.Kind.RESOLVER, resolverName);
  }

  /** The resolver a plan source names, as a key source; null if it names none. */
  public static KeySource planResolverSource(PolicyConfig policy) {
    PolicyConfig.PlanSource source = policy.plans().source();
    return source != null && source.kind() == PolicyConfig.PlanSource.Kind.RESOLVER
        ? new KeySource(KeySource.Kind.RESOLVER, source.argument())
        : null;
  }

  private Supplier<KeyResolver> resolver(PolicyConfig policy, String setting, KeySource source) {
    return find(resolvers, policy, setting, source);
  }

  private static Supplier<KeyResolver> find(
      ResolverLookup resolvers, PolicyConfig policy, String setting, KeySource source) {
    return source == null || source.kind() != KeySource.Kind.RESOLVER
        ? null
        : resolvers.find(policy, setting, source.argument());
  }
}
