package io.github.limiter.servlet;

import io.github.limiter.ConfigException;
import io.github.limiter.Limiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.insight.Insight;
import io.github.limiter.internal.log.LogText;
import io.github.limiter.internal.log.StartLog;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.internal.store.Stores;
import io.github.limiter.microprofile.MicroProfileConfigLookup;
import io.github.limiter.spi.ConfigLookup;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Rate limits HTTP requests: each request that matches a {@code limiter.route.*} is decided under
 * that route's policies, all or nothing; a rejection is written as the configured 429 (or 503 when
 * the store cannot decide) with {@code Retry-After} and a problem+json body, and every response
 * under a policy carries the {@code RateLimit} headers. Requests that match no route pass
 * untouched.
 *
 * <p>Configuration is the one key scheme of {@link LimiterConfig}: filter init-params, layered over
 * MicroProfile Config when the application has it (init-params win). {@code
 * limiter.http.forwarded-header} ({@code x-forwarded-for}, the default, or {@code forwarded}) names
 * the header that the proxies in {@code limiter.http.trusted-proxies} write. Only that header is
 * believed, so a client cannot slip in the other one. Invalid configuration fails {@link #init}
 * with a {@link ServletException} whose message names the key and the value, so the deployment
 * fails.
 *
 * <p>Use it declared in {@code web.xml}, as a {@code @WebFilter} subclass, or added
 * programmatically, with {@link #RateLimitFilter(ConfigLookup, Limiter)} for a ready configuration
 * and limiter. Map it with {@code async-supported} and the {@code REQUEST} and {@code ASYNC}
 * dispatcher types: leaky-bucket shaping holds requests asynchronously and resumes them with an
 * async dispatch.
 */
public class RateLimitFilter implements Filter {

  private static final Logger LOG = Logger.getLogger(RateLimitFilter.class.getName());

  private final LimiterConfig presetConfig;
  private final Limiter presetLimiter;
  private final Supplier<Shaper.Scheduler> scheduler;
  private volatile FilterRequests requests;

  /** The application's runtime, which this filter decides with. */
  private volatile LimiterRuntime runtime;

  private volatile Stats stats;
  private ServletContext context;
  private String statsAttribute;

  /**
   * A filter configured from init-params and MicroProfile Config, for web.xml and
   * {@code @WebFilter}.
   */
  public RateLimitFilter() {
    this.presetConfig = null;
    this.presetLimiter = null;
    this.scheduler = null;
  }

  /**
   * A filter with a ready configuration and limiter, for programmatic registration ({@code
   * ServletContext.addFilter}). Init-params are then ignored, and the filter does not close the
   * limiter: its creator does.
   *
   * @throws ConfigException naming the key and the value, if the configuration is invalid
   */
  public RateLimitFilter(ConfigLookup config, Limiter limiter) {
    this(LimiterConfig.from(Objects.requireNonNull(config, "config")), limiter, null);
  }

  /** A preset filter whose shaping waits run on {@code scheduler}: the time seam for tests. */
  RateLimitFilter(LimiterConfig config, Limiter limiter, Supplier<Shaper.Scheduler> scheduler) {
    this.presetConfig = Objects.requireNonNull(config, "config");
    this.presetLimiter = Objects.requireNonNull(limiter, "limiter");
    this.scheduler = scheduler;
  }

  /**
   * The name of the servlet-context attribute that holds the {@link Stats} of the filter called
   * {@code filterName}.
   */
  public static String statsAttribute(String filterName) {
    return RateLimitFilter.class.getName() + ".stats." + filterName;
  }

  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    ServletContext context = filterConfig.getServletContext();
    String name = filterConfig.getFilterName() == null ? "limiter" : filterConfig.getFilterName();
    ClassLoader loader = context.getClassLoader();
    if (loader == null) {
      loader = Thread.currentThread().getContextClassLoader();
    }
    Supplier<Shaper.Scheduler> shaping =
        scheduler != null ? scheduler : () -> Shaper.Scheduler.daemon(name);
    LimiterRuntime shared = null;
    try {
      if (presetConfig != null) {
        warnIfNoRoutes(presetConfig, name);
        ClassLoader presetLoader = loader;
        shared =
            ContextRuntime.acquire(
                context,
                name,
                null,
                () -> LimiterRuntime.over(presetLimiter.store(), presetConfig, null, presetLoader));
      } else {
        Map<String, String> params = initParams(filterConfig);
        ConfigLookup lookup = lookup(params, loader);
        // Read first, so that a configuration error leaves nothing to close.
        LimiterConfig config = LimiterConfig.from(lookup);
        ClassLoader configLoader = loader;
        shared =
            ContextRuntime.acquire(
                context, name, params, () -> LimiterRuntime.open(config, lookup, configLoader));
        warnIfNoRoutes(shared.config(), name);
      }
      FilterRequests built = new FilterRequests(shared, loader, name, LOG, shaping);
      runtime = shared;
      requests = built;
      stats = new Stats(built.counters());
      this.context = context;
      this.statsAttribute = statsAttribute(name);
      context.setAttribute(statsAttribute, stats);
    } catch (ConfigException e) {
      release(context, shared);
      throw failed(name, e);
    } catch (RuntimeException e) {
      release(context, shared);
      // E.g. a store that cannot start: the deployment fails here too, not at the first request.
      throw new ServletException(
          StartLog.failed(LOG, describe(name), List.of("cannot start: " + e)), e);
    }
  }

  private static void release(ServletContext context, LimiterRuntime runtime) {
    if (runtime != null) {
      ContextRuntime.release(context, runtime);
    }
  }

  /** How the start lines name the filter called {@code name}. */
  static String describe(String name) {
    return "RateLimitFilter '" + name + "'";
  }

  /**
   * Logs the one line that says why the filter called {@code name} cannot start, and returns the
   * exception that fails the deployment with it.
   */
  static ServletException failed(String name, ConfigException invalid) {
    List<String> problems = invalid.problems().stream().map(ConfigException::getMessage).toList();
    return new ServletException(StartLog.failed(LOG, describe(name), problems), invalid);
  }

  private static void warnIfNoRoutes(LimiterConfig config, String name) {
    if (config.routes().isEmpty()) {
      LOG.warning(
          "RateLimitFilter "
              + LogText.quote(name)
              + " has no limiter.route.* to apply: it limits nothing");
    }
  }

  /**
   * The filter's {@code limiter.*} init-params: its own configuration, over MicroProfile Config.
   */
  private static Map<String, String> initParams(FilterConfig filterConfig) {
    Map<String, String> params = new LinkedHashMap<>();
    for (String param : Collections.list(filterConfig.getInitParameterNames())) {
      if (param.startsWith(LimiterConfig.PREFIX)) {
        params.put(param, filterConfig.getInitParameter(param));
      }
    }
    return params;
  }

  /**
   * Checks the configuration a filter called {@code name} with {@code params} would read, without
   * starting anything: for {@link RateLimitInitializer}, so that a container that only logs a
   * filter's failed init (Payara does) still fails the deployment. Resolvers that may be CDI beans
   * and the values of the store's own keys are left to {@link #init}.
   *
   * @return the configuration, or null when it cannot be known this early
   */
  static LimiterConfig validate(String name, Map<String, String> params, ClassLoader loader)
      throws ServletException {
    if (hasMicroProfileApi(loader) && !MicroProfileConfigLookup.isAvailable(loader)) {
      // MicroProfile Config is not ready this early: part of the configuration is unknown, init
      // checks it all.
      return null;
    }
    try {
      ConfigLookup lookup = lookup(params, loader);
      LimiterConfig config = LimiterConfig.from(lookup);
      ResolverDiscovery.checkWithoutCdi(config, loader);
      Stores.check(config.store(), lookup, loader);
      return config;
    } catch (ConfigException e) {
      throw failed(name, e);
    }
  }

  private static boolean hasMicroProfileApi(ClassLoader loader) {
    try {
      Class.forName("org.eclipse.microprofile.config.ConfigProvider", false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Init-params, layered over MicroProfile Config when the application has it. */
  static ConfigLookup lookup(Map<String, String> params, ClassLoader loader) {
    return MicroProfileConfigLookup.over(params, loader);
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    FilterRequests current = requests;
    if (current == null
        || !(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    DispatcherType type = request.getDispatcherType();
    if (type == DispatcherType.REQUEST) {
      current.handle(request, response, chain);
    } else if (type != DispatcherType.ASYNC || !current.resume(request, response, chain)) {
      // Forwards, includes, error pages and foreign async dispatches were decided (or not) already.
      chain.doFilter(request, response);
    }
  }

  @Override
  public void destroy() {
    FilterRequests current = requests;
    LimiterRuntime shared = runtime;
    requests = null;
    runtime = null;
    if (current != null) {
      context.removeAttribute(statsAttribute);
      current.close();
      ContextRuntime.release(context, shared);
    }
  }

  /**
   * Counters per policy since the filter started.
   *
   * @throws IllegalStateException before {@link #init}
   */
  public Stats stats() {
    Stats current = stats;
    if (current == null) {
      throw new IllegalStateException("RateLimitFilter is not initialized");
    }
    return current;
  }

  /**
   * What the operator sees of this filter's traffic (top keys, shadow trials); null before init.
   */
  Insight insight() {
    LimiterRuntime current = runtime;
    return current == null ? null : current.insight();
  }

  /**
   * What the filter did, per policy: also in the servlet-context attribute {@link
   * #statsAttribute(String)}.
   */
  public static final class Stats {

    /**
     * Counts of one policy.
     *
     * @param admitted requests the policy admitted (dry-run policies included)
     * @param rejected requests it rejected (429, 503, or a missing key under {@code reject})
     * @param dryRunRejected requests a dry-run policy would have rejected, and let pass
     * @param delayed admitted requests held for leaky-bucket shaping
     */
    public record Counts(long admitted, long rejected, long dryRunRejected, long delayed) {}

    private final Counters counters;

    Stats(Counters counters) {
      this.counters = counters;
    }

    /** The names of the configured policies. */
    public Set<String> policies() {
      return Collections.unmodifiableSet(counters.policies());
    }

    /**
     * The counts of {@code policy}.
     *
     * @throws IllegalArgumentException if no policy has that name
     */
    public Counts counts(String policy) {
      Counts counts = counters.counts(policy);
      if (counts == null) {
        throw new IllegalArgumentException(
            "no policy named '" + policy + "'; configured are " + counters.policies());
      }
      return counts;
    }

    @Override
    public String toString() {
      StringBuilder text = new StringBuilder("Stats[");
      for (String policy : counters.policies()) {
        text.append(text.length() > 6 ? ", " : "")
            .append(policy)
            .append('=')
            .append(counts(policy));
      }
      return text.append(']').toString();
    }
  }
}
