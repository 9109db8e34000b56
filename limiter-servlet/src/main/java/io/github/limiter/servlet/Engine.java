package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.AdmissionMetrics;
import io.github.limiter.internal.admission.CostReport;
import io.github.limiter.internal.admission.Counts;
import io.github.limiter.internal.admission.RequestReader;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.admission.NearLimit;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.Routes;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.http.ChargedPolicies;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.log.RateLimitedLog;
import io.github.limiter.internal.metrics.OpenStores;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.github.limiter.internal.render.ResponseRenderer;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the filter does per request, built once from the configuration: match the routes, then the
 * three moves of every adapter: view the request, call the core's admission step, render the
 * outcome (a rejection, or headers and a pass, maybe after a shaping wait).
 */
final class Engine {

  private static final String CDI_CLASS = "jakarta.enterprise.inject.spi.CDI";

  private final Limiter limiter;
  private final boolean ownsLimiter;

  /** Shows the store to the readiness check until the engine closes. */
  private final OpenStores.Handle openStore;

  private final Admission admission;
  private final ResponseRenderer renderer;
  private final Routes routes;
  private final Counters counters;
  private final Shaper shaper;
  private final ClassLoader loader;
  private final String name;

  /** Found on the first hold, on a request thread, where CDI.current() surely answers. */
  private volatile RequestScope requestScope;

  private final String resumeAttribute;
  private final RateLimitedLog asyncLog;

  /**
   * Builds the rules first (they may fail on config), then opens the limiter and binds them to it;
   * the engine closes the limiter if it {@code ownsLimiter}.
   */
  Engine(
      LimiterConfig config,
      ClassLoader loader,
      String name,
      Logger logger,
      Supplier<Shaper.Scheduler> scheduler,
      Supplier<Limiter> openLimiter,
      boolean ownsLimiter) {
    this.counters = new Counters(config.policies().keySet(), logger);
    Recorder metrics = RecorderFactory.load(config.metrics(), loader);
    this.admission =
        new Admission(
            new ClientAddress(config.http()),
            true,
            false,
            counters,
            AdmissionMetrics.of(
                metrics, config.store(), new NearLimit(config.events().nearLimit())));
    Map<String, Rule> rules = rules(config, loader);
    Limiter limiter = openLimiter.get();
    this.limiter = limiter;
    this.ownsLimiter = ownsLimiter;
    this.openStore = OpenStores.open(config.store(), limiter.store(), config, metrics);
    this.renderer = new ResponseRenderer(config.http());
    Map<String, PolicyLimiter> bound = new HashMap<>();
    this.routes =
        new Routes(
            config.routes(),
            rules,
            list ->
                PolicySet.of(
                    list,
                    policy -> bound.computeIfAbsent(policy.name(), n -> limiter.bind(policy))));
    this.shaper =
        rules.values().stream().anyMatch(r -> !r.config().shaping().nodelay())
            ? new Shaper(scheduler.get())
            : null;
    this.loader = loader;
    this.name = name;
    this.resumeAttribute = RateLimitFilter.class.getName() + ".resume." + name;
    this.asyncLog = new RateLimitedLog(logger, RateLimitFilter.class, Duration.ofSeconds(60));
  }

  /**
   * One rule per routed policy; its resolver, if it names one, is looked up now, so a wrong name
   * fails here.
   */
  private Map<String, Rule> rules(LimiterConfig config, ClassLoader loader) {
    Set<String> routed = routedPolicies(config);
    KeyResolvers[] resolvers = new KeyResolvers[1];
    Map<String, Rule> rules = new LinkedHashMap<>();
    for (PolicyConfig policy : config.policies().values()) {
      if (!routed.contains(policy.name())) {
        continue; // on no route, the filter never keys it: its resolver is the other adapters'
        // business
      }
      KeyResolver keyResolver = resolver(policy, "key", policy.key(), resolvers, loader);
      RequestReader key = admission.keyFunction(policy.key(), () -> keyResolver);
      KeyResolver costResolver =
          resolver(policy, "cost", policy.cost().source(), resolvers, loader);
      RequestReader cost = admission.costFunction(policy.cost(), () -> costResolver);
      KeyResolver planResolver =
          resolver(policy, "plan-source", planResolverSource(policy), resolvers, loader);
      RequestReader plan = admission.planFunction(policy.plans(), () -> planResolver);
      rules.put(
          policy.name(),
          new Rule(policy, key, policy.permits(), cost, Counts.byStatus(policy.count()), plan));
    }
    return rules;
  }

  /**
   * The resolver that {@code source} ({@code limiter.policy.NAME.<what>}) names, found now so that
   * a wrong name fails here; null for a source that names none.
   */
  private static KeyResolver resolver(
      PolicyConfig policy,
      String what,
      KeySource source,
      KeyResolvers[] resolvers,
      ClassLoader loader) {
    if (source == null || source.kind() != KeySource.Kind.RESOLVER) {
      return null;
    }
    resolvers[0] =
        resolvers[0] != null ? resolvers[0] : KeyResolvers.find(cdiBeans(loader), loader);
    return resolvers[0].get(
        LimiterConfig.POLICY_PREFIX + policy.name() + "." + what, source.argument());
  }

  /** The resolver a plan source names, as a key source; null if it names none. */
  static KeySource planResolverSource(PolicyConfig policy) {
    PolicyConfig.PlanSource source = policy.plans().source();
    return source != null && source.kind() == PolicyConfig.PlanSource.Kind.RESOLVER
        ? new KeySource(KeySource.Kind.RESOLVER, source.argument())
        : null;
  }

  /**
   * Checks the resolver names of {@code config} at start-up, before CDI may be running: only when
   * the CDI API is absent, so that every resolver must be a ServiceLoader service.
   */
  static void checkResolversWithoutCdi(LimiterConfig config, ClassLoader loader) {
    if (hasCdi(loader)) {
      return;
    }
    Set<String> routed = routedPolicies(config);
    for (PolicyConfig policy : config.policies().values()) {
      if (routed.contains(policy.name())) {
        KeyResolvers[] serviceLoaded = {KeyResolvers.find(List.of(), loader)};
        resolver(policy, "key", policy.key(), serviceLoaded, loader);
        resolver(policy, "cost", policy.cost().source(), serviceLoaded, loader);
        resolver(policy, "plan-source", planResolverSource(policy), serviceLoaded, loader);
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

  private static List<KeyResolver> cdiBeans(ClassLoader loader) {
    return hasCdi(loader) ? CdiKeyResolvers.find() : List.of();
  }

  static boolean hasCdi(ClassLoader loader) {
    try {
      Class.forName(CDI_CLASS, false, Engine.class.getClassLoader());
      Class.forName(CDI_CLASS, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  Counters counters() {
    return counters;
  }

  void close() {
    openStore.close();
    if (shaper != null) {
      shaper.shutdown();
    }
    if (ownsLimiter) {
      limiter.close();
    }
  }

  void handle(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    PolicySet set = match(request);
    if (set.size() == 0) {
      chain.doFilter(request, response);
      return;
    }
    RequestFrame outcome = admission.admit(set, new ServletRequestView(request));
    if (!outcome.allowed()) {
      reject(outcome.policy(outcome.rejectedAt()), outcome, response);
      return;
    }
    renderer.headers(outcome.appliedPolicies(), outcome.decisions(), response::addHeader);
    if (outcome.waitNanos() > 0) {
      if (request.isAsyncSupported() && !request.isAsyncStarted()) {
        if (requestScope == null) {
          requestScope = RequestScope.find(loader);
        }
        request.setAttribute(resumeAttribute, outcome);
        shaper.hold(request, response, outcome.waitNanos());
        if (outcome.policies().settles()) {
          settleIfDropped(outcome, request, response);
        }
        return;
      }
      String passes =
          "RateLimitFilter '"
              + name
              + "' lets a leaky-bucket request on "
              + request.getRequestURI()
              + " pass without its shaping wait: ";
      asyncLog.log(
          Level.WARNING,
          "doFilter",
          request.isAsyncStarted()
              ? passes + "the request is async already"
              : passes
                  + "the request is not async-supported. The filter itself, a filter mapped before it, or on some"
                  + " servers the servlet is not (<async-supported>true</async-supported> in web.xml, asyncSupported ="
                  + " true on @WebFilter and @WebServlet, setAsyncSupported(true) for one added by code)");
    }
    pass(outcome, request, response, chain);
  }

  /**
   * A request resumed after its shaping wait: it was decided already, so it only passes, in a
   * request context as an unheld request would be (Payara has none active on an async dispatch).
   */
  boolean resume(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request.getAttribute(resumeAttribute) instanceof RequestFrame outcome)) {
      return false;
    }
    request.removeAttribute(resumeAttribute);
    requestScope.around(() -> pass(outcome, request, response, chain));
    return true;
  }

  /**
   * Continues the chain in a scope where the policies {@code outcome} charged count as charged, for
   * the CDI interceptor, and where the application can report the request's actual cost; then
   * settles the request when it ends, if some policy counts only some requests or it reported a
   * cost.
   */
  private void pass(
      RequestFrame outcome, HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    ChargedPolicies.Scope scope = ChargedPolicies.open(outcome.charged());
    CostReport.enter();
    Throwable failure = null;
    try {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      scope.close();
      CostReport report = CostReport.exit();
      if (outcome.policies().settles() || report != null) {
        settle(outcome, request, response, failure, report);
      }
    }
  }

  /**
   * Settles the request now, or, when the application went async, once its async cycle ends
   * (completed, failed or timed out); {@link Admission#finish} settles an outcome once only.
   */
  private void settle(
      RequestFrame outcome,
      HttpServletRequest request,
      HttpServletResponse response,
      Throwable failure,
      CostReport report) {
    if (failure != null || !request.isAsyncStarted()) {
      admission.finish(outcome, failure != null ? 500 : response.getStatus(), failure, report);
      return;
    }
    request.getAsyncContext().addListener(new SettleAtEnd(outcome, response, report, true));
  }

  /**
   * Settles a request held for its shaping wait if its hold ends before it passes (it fails or
   * times out): it never reaches {@link #pass}, and a concurrency permit must not stay taken. A
   * request that passes is settled by {@code pass} first, and settling is once only.
   */
  private void settleIfDropped(
      RequestFrame outcome, HttpServletRequest request, HttpServletResponse response) {
    request.getAsyncContext().addListener(new SettleAtEnd(outcome, response, null, false));
  }

  /** Settles an outcome when an async cycle ends, however it ends. */
  private final class SettleAtEnd implements AsyncListener {
    private final RequestFrame outcome;
    private final HttpServletResponse response;
    private final CostReport report;

    /**
     * Whether to follow a new async cycle started in this one; a shaping hold does not, since the
     * application's cycle after it is settled by {@code pass}.
     */
    private final boolean followsNewCycles;

    SettleAtEnd(
        RequestFrame outcome,
        HttpServletResponse response,
        CostReport report,
        boolean followsNewCycles) {
      this.outcome = outcome;
      this.response = response;
      this.report = report;
      this.followsNewCycles = followsNewCycles;
    }

    @Override
    public void onComplete(AsyncEvent event) {
      admission.finish(outcome, response.getStatus(), null, report);
    }

    @Override
    public void onError(AsyncEvent event) {
      admission.finish(outcome, 500, event.getThrowable(), report);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      admission.finish(outcome, 503, event.getThrowable(), report);
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      if (followsNewCycles) {
        event.getAsyncContext().addListener(this);
      }
    }
  }

  private PolicySet match(HttpServletRequest request) {
    String path = request.getServletPath();
    String info = request.getPathInfo();
    if (info != null) {
      path = path.isEmpty() ? info : path + info;
    }
    return routes.match(path, request.getMethod());
  }

  private void reject(Policy policy, RequestFrame outcome, HttpServletResponse response)
      throws IOException {
    if (response.isCommitted()) {
      return;
    }
    renderer.reject(
        policy,
        outcome.rejection(),
        new ResponseRenderer.RejectionSink() {
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
