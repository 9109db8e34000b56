package io.github.limiter.servlet;

import io.github.limiter.Decision;
import io.github.limiter.internal.admission.AllOrNothing;
import io.github.limiter.internal.admission.Decisions;
import io.github.limiter.Limiter;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.Route;
import io.github.limiter.internal.http.ChargedPolicies;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.http.ResponseRenderer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the filter does per request, built once from the configuration: match routes, resolve a key
 * per policy, decide all-or-nothing, then reject, or send headers and pass (maybe after a shaping
 * wait).
 */
final class Engine {

  /**
   * The guards of a request, their bound policies, how each charges, and their names as
   * ChargedPolicies wants them when all decided: built once per route.
   */
  private record Matched(Guard[] guards, List<PolicyLimiter> limiters, IntToLongFunction permitsAt,
      IntPredicate enforcedAt, List<String> names) {
    static Matched of(List<Guard> guards, Map<Guard, PolicyLimiter> bound) {
      Guard[] array = guards.toArray(new Guard[0]);
      return new Matched(array, guards.stream().map(bound::get).toList(), i -> array[i].permits,
          i -> !array[i].dryRun, guards.stream().map(g -> g.name).toList());
    }
  }

  private static final Matched NONE = Matched.of(List.of(), Map.of());

  private final Limiter limiter;
  private final boolean ownsLimiter;
  private final ResponseRenderer renderer;
  private final ClientAddress address;
  private final Route[] routes;
  private final Matched[] routeGuards;
  private final Map<String, Guard> guards;
  private final Map<Guard, PolicyLimiter> bound = new IdentityHashMap<>();
  private final Shaper shaper;
  private final String resumeAttribute;
  private final RateLimitedLog asyncLog;

  private Engine(Builder b) {
    this.limiter = b.limiter;
    this.ownsLimiter = b.ownsLimiter;
    this.renderer = new ResponseRenderer(b.config.http());
    this.address = b.address;
    this.guards = b.guards;
    guards.values().forEach(guard -> bound.put(guard, limiter.bind(guard.policy)));
    List<Route> configured = b.config.routes();
    this.routes = configured.toArray(new Route[0]);
    this.routeGuards = new Matched[routes.length];
    for (int i = 0; i < routes.length; i++) {
      routeGuards[i] = Matched.of(configured.get(i).policies().stream().map(guards::get).toList(), bound);
    }
    this.shaper = guards.values().stream().anyMatch(g -> g.shapes) ? new Shaper(b.name) : null;
    this.resumeAttribute = RateLimitFilter.class.getName() + ".resume." + b.name;
    this.asyncLog = new RateLimitedLog(b.logger);
  }

  /** Builds the per-policy guards first (they may fail on config), then takes the limiter. */
  static final class Builder {
    final LimiterConfig config;
    final ClientAddress address;
    final Map<String, Guard> guards = new LinkedHashMap<>();
    final String name;
    final Logger logger;
    Limiter limiter;
    boolean ownsLimiter;

    Builder(LimiterConfig config, ClientAddress address, ClassLoader loader, String name, Logger logger) {
      this.config = config;
      this.address = address;
      this.name = name;
      this.logger = logger;
      KeyResolvers[] resolvers = new KeyResolvers[1];
      java.util.Set<String> routed = KeyResolvers.routedPolicies(config);
      for (PolicyConfig policy : config.policies().values()) {
        String configKey = LimiterConfig.POLICY_PREFIX + policy.name() + ".key";
        if (!routed.contains(policy.name())) {
          // On no route, the filter never keys it: its resolver is the other adapters' business.
          guards.put(policy.name(), new Guard(policy, request -> null, logger));
          continue;
        }
        Guard.KeyFunction key = Guard.keyFunction(policy.key(), configKey, address, () -> {
          if (resolvers[0] == null) {
            resolvers[0] = KeyResolvers.find(loader);
          }
          return resolvers[0];
        });
        guards.put(policy.name(), new Guard(policy, key, logger));
      }
    }

    Engine build(Limiter limiter, boolean ownsLimiter) {
      this.limiter = limiter;
      this.ownsLimiter = ownsLimiter;
      return new Engine(this);
    }
  }

  Map<String, Guard> guards() {
    return guards;
  }

  void close() {
    if (shaper != null) {
      shaper.shutdown();
    }
    if (ownsLimiter) {
      limiter.close();
    }
  }

  /** A request resumed after its shaping wait: it was decided already, so it only passes. */
  boolean resume(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Object charged = request.getAttribute(resumeAttribute);
    if (!(charged instanceof List<?> names)) {
      return false;
    }
    request.removeAttribute(resumeAttribute);
    @SuppressWarnings("unchecked")
    List<String> policies = (List<String>) names;
    pass(policies, request, response, chain);
    return true;
  }

  /** Continues the chain in a scope where {@code charged} count as charged, for the CDI interceptor. */
  private static void pass(List<String> charged, HttpServletRequest request, HttpServletResponse response,
      FilterChain chain) throws IOException, ServletException {
    ChargedPolicies.Scope scope = ChargedPolicies.open(charged);
    try {
      chain.doFilter(request, response);
    } finally {
      scope.close();
    }
  }

  void handle(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Matched match = match(request);
    Guard[] matched = match.guards;
    if (matched.length == 0) {
      chain.doFilter(request, response);
      return;
    }
    int n = matched.length;
    // Keys first: a missing key under on-missing-key=reject rejects before anything is charged.
    String[] keys = new String[n];
    for (int i = 0; i < n; i++) {
      Guard guard = matched[i];
      String key = key(guard, request);
      if (key == null) {
        switch (guard.config.onMissingKey()) {
          case ALLOW -> {
            continue;
          }
          case REJECT -> {
            Decision missing = Decision.missingKey(guard.name, guard.policy.limits().get(0));
            if (guard.dryRun) {
              wouldReject(guard, missing);
              continue;
            }
            reject(guard, missing, response);
            return;
          }
          default -> key = Guard.addressKey(address, request);
        }
      }
      keys[i] = key;
    }
    Decisions decisions = AllOrNothing.decideEach(match.limiters, i -> keys[i], match.permitsAt, match.enforcedAt);
    for (int i = 0; i < n; i++) {
      Decision decision = decisions.get(i);
      if (decision != null && !decision.isAllowed() && i != decisions.rejectedAt()) {
        wouldReject(matched[i], decision); // a dry-run policy: decided, not charged, headers yes
      }
    }
    if (!decisions.allowed()) {
      reject(matched[decisions.rejectedAt()], decisions.rejection(), response);
      return;
    }
    for (int i = 0; i < n; i++) {
      Decision decision = decisions.get(i);
      if (decision != null && decision.isAllowed()) {
        matched[i].admitted.increment();
      }
    }
    long wait = headersAndWait(matched, decisions, response);
    List<String> charged = chargedNames(match, decisions);
    if (wait > 0) {
      if (request.isAsyncSupported() && !request.isAsyncStarted()) {
        request.setAttribute(resumeAttribute, charged);
        shaper.hold(request, response, wait);
        return;
      }
      asyncLog.log(Level.WARNING, "A leaky-bucket request on " + request.getRequestURI() + " passes without its"
          + " shaping wait: a filter before RateLimitFilter is not async-supported, or the request"
          + " is async already");
    }
    pass(charged, request, response, chain);
  }

  private Matched match(HttpServletRequest request) {
    if (routes.length == 0) {
      return NONE;
    }
    String path = request.getServletPath();
    String info = request.getPathInfo();
    if (info != null) {
      path = path.isEmpty() ? info : path + info;
    }
    String method = request.getMethod();
    Matched first = null;
    List<Guard> union = null;
    for (int i = 0; i < routes.length; i++) {
      if (!routes[i].matches(path, method)) {
        continue;
      }
      if (first == null) {
        first = routeGuards[i];
        continue;
      }
      // Several routes match: every one of their policies applies, each once, in route order.
      if (union == null) {
        union = new ArrayList<>(List.of(first.guards));
      }
      for (Guard guard : routeGuards[i].guards) {
        if (!union.contains(guard)) {
          union.add(guard);
        }
      }
    }
    return union != null ? Matched.of(union, bound) : first != null ? first : NONE;
  }

  private static String key(Guard guard, HttpServletRequest request) {
    try {
      return guard.key.key(request);
    } catch (RuntimeException e) {
      // Bad input must never become a 500: no key, and on-missing-key decides.
      return null;
    }
  }

  private void wouldReject(Guard guard, Decision decision) {
    guard.dryRunRejected.increment();
    guard.dryRunLog.log(Level.INFO, "Rate limit policy '" + guard.name + "' is in dry run and would have rejected a"
        + " request (" + decision.outcome() + "); it passed");
  }

  private void reject(Guard guard, Decision decision, HttpServletResponse response) throws IOException {
    guard.rejected.increment();
    if (!response.isCommitted()) {
      renderer.reject(guard.policy, decision, new ResponseRenderer.RejectionSink() {
        @Override
        public void status(int status) {
          response.setStatus(status);
        }

        @Override
        public void header(String name, String value) {
          response.setHeader(name, value);
        }

        @Override
        public void body(String contentType, byte[] body) throws IOException {
          response.setContentType(contentType);
          response.setContentLength(body.length);
          response.getOutputStream().write(body);
        }
      });
    }
  }

  /** Sends every decided policy's headers; returns the longest shaping wait among them. */
  private long headersAndWait(Guard[] matched, Decisions decisions, HttpServletResponse response) {
    int tightest = -1;
    for (int i = 0; i < matched.length; i++) {
      Decision each = decisions.get(i);
      if (each != null && (tightest < 0 || each.remaining() < decisions.get(tightest).remaining())) {
        tightest = i;
      }
    }
    long wait = 0;
    for (int i = 0; i < matched.length; i++) {
      Decision decision = decisions.get(i);
      if (decision == null) {
        continue;
      }
      Guard guard = matched[i];
      // IETF headers are lists, one item per policy; the legacy ones hold one number, the tightest policy's.
      BiConsumer<String, String> header = i == tightest ? response::addHeader : (name, value) -> {
        if (!name.startsWith("X-RateLimit-")) {
          response.addHeader(name, value);
        }
      };
      renderer.headers(guard.policy, decision, header);
      if (guard.shapes && !guard.dryRun && decision.isAllowed()) {
        long w = guard.config.shaping().waitNanos(decision, guard.permits);
        if (w > 0) {
          guard.delayed.increment();
          wait = Math.max(wait, w);
        }
      }
    }
    return wait;
  }

  /** The names of the decided policies: usually all of them, whose list is ready. */
  private static List<String> chargedNames(Matched match, Decisions decisions) {
    List<String> names = null;
    for (int i = 0; i < match.guards.length; i++) {
      if (decisions.get(i) == null && names == null) {
        names = new ArrayList<>(match.names.subList(0, i));
      } else if (decisions.get(i) != null && names != null) {
        names.add(match.guards[i].name);
      }
    }
    return names == null ? match.names : names;
  }
}
