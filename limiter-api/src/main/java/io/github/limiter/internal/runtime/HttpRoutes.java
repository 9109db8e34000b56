package io.github.limiter.internal.runtime;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.AdmissionObserver;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.admission.Routes;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.admission.RuleCompiler;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.insight.PolicyScope;
import io.github.limiter.internal.render.ResponseRenderer;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * What every HTTP adapter does with a request, over the application's {@link LimiterRuntime}: find
 * the {@code limiter.route.*} that match its path and method, admit it under their policies through
 * the one admission step, and render the outcome with the one renderer. The servlet filter and the
 * Jakarta REST filter differ only in how they view a request, hold a shaping wait and see it end.
 */
public final class HttpRoutes {

  private final Admission admission;
  private final Routes routes;
  private final ResponseRenderer renderer;
  private final boolean shapes;

  /**
   * Compiles the routed policies' rules over {@code runtime}; a resolver that a setting names is
   * looked up among {@code beans} (asked once, on the first one named) and the services of {@code
   * loader}, and a wrong name fails here with a {@link io.github.limiter.ConfigException} naming
   * the key and the value. The runtime stays its owner's to close.
   *
   * @param observer the adapter's counters, or {@link AdmissionObserver#NONE}
   * @param behindAnother whether the adapter may run behind another HTTP adapter of the application
   *     (the Jakarta REST filters behind the servlet filter): a policy the outer one charged for
   *     the request is left out, so that it counts the request once
   */
  public HttpRoutes(
      LimiterRuntime runtime,
      AdmissionObserver observer,
      Supplier<List<KeyResolver>> beans,
      ClassLoader loader,
      boolean behindAnother) {
    LimiterConfig config = runtime.config();
    Admission outer = runtime.admission(true, false, observer, null);
    this.admission = behindAnother ? outer.skippingCharged() : outer;
    RuleCompiler compiler =
        new RuleCompiler(admission, KeyResolvers.of(beans, loader), runtime.gates());
    Map<String, Rule> rules = routedRules(config, compiler);
    runtime.insight().describe(PolicyScope.ofRoutes(config));
    this.renderer = new ResponseRenderer(config.http());
    this.routes = new Routes(config.routes(), rules, runtime::policySet);
    this.shapes = rules.values().stream().anyMatch(r -> !r.config().shaping().nodelay());
  }

  /**
   * The policies some {@code limiter.route.*} names: only their {@code resolver:NAME} must resolve
   * for an HTTP adapter. A policy on no route is applied by other adapters (a {@code @Limited}
   * method).
   */
  public static Set<String> routedPolicies(LimiterConfig config) {
    Set<String> routed = new HashSet<>();
    config.routes().forEach(route -> routed.addAll(route.policies()));
    return routed;
  }

  /** One rule per routed policy. */
  private static Map<String, Rule> routedRules(LimiterConfig config, RuleCompiler compiler) {
    Set<String> routed = routedPolicies(config);
    Map<String, Rule> rules = new LinkedHashMap<>();
    for (PolicyConfig policy : config.policies().values()) {
      if (routed.contains(policy.name())) {
        rules.put(policy.name(), compiler.compile(policy));
      }
    }
    return rules;
  }

  /** Whether a routed policy may delay a request (leaky-bucket shaping) instead of refusing it. */
  public boolean shapes() {
    return shapes;
  }

  /**
   * The policies of the routes matching {@code path} (below the application's root, starting with
   * {@code /}) and {@code method}; empty when none matches, and then the request passes untouched.
   */
  public PolicySet match(String path, String method) {
    return routes.match(path, method);
  }

  /** Admits {@code request} under {@code policies}, all or nothing: the one admission step. */
  public RequestFrame admit(PolicySet policies, RequestView request) {
    return admission.admit(policies, request);
  }

  /** Writes the whole response for a rejected {@code frame} to {@code sink}. */
  public void reject(RequestFrame frame, ResponseRenderer.RejectionSink sink) throws IOException {
    renderer.reject(frame.policy(frame.rejectedAt()), frame.rejection(), sink);
  }

  /** Writes the {@code RateLimit} headers of an admitted {@code frame}, as configured. */
  public void headers(RequestFrame frame, BiConsumer<String, String> header) {
    renderer.headers(frame.appliedPolicies(), frame.decisions(), header);
  }
}
