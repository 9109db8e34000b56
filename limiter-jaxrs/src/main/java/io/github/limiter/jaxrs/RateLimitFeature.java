package io.github.limiter.jaxrs;

import io.github.limiter.ConfigException;
import io.github.limiter.KeyResolver;
import io.github.limiter.Limiter;
import io.github.limiter.internal.admin.AdminApi;
import io.github.limiter.internal.admission.DryRunLog;
import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.log.StartLog;
import io.github.limiter.internal.runtime.HttpRoutes;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.microprofile.MicroProfileConfigLookup;
import io.github.limiter.spi.ConfigLookup;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Rate limits the requests of a Jakarta REST application by {@code limiter.route.*}, with the
 * servlet filter's configuration and responses: each request whose path (below the application's
 * base URI) and method match a route is decided under that route's policies, all or nothing; a
 * rejection is the configured 429 (or 503 when the store cannot decide) with {@code Retry-After},
 * {@code Cache-Control: no-store} and a problem+json body, and every admitted response under a
 * policy carries the {@code RateLimit} headers. Requests that match no route pass untouched.
 *
 * <p>Found by {@code @Provider} scanning (Payara, WildFly, Open Liberty, Quarkus REST), or
 * registered by hand. It decides with the application's one runtime: limiter-cdi's bean when the
 * application has CDI and limiter-cdi, so that routes and {@code @Limited} share each budget; else
 * one it builds from the {@code limiter.*} properties of the Jakarta REST configuration over
 * MicroProfile Config, closed by {@link #close}; or the one over a ready configuration and limiter
 * ({@link #RateLimitFeature(ConfigLookup, Limiter)}). An invalid configuration fails the start of
 * the application with a {@link ConfigException} naming the key and the value.
 *
 * <p>With {@code limiter.admin.enabled}, it also serves the admin API and the operator console at
 * {@code limiter.admin.path} below the application's base URI, guarded as limiter-servlet's: the
 * same {@code AdminApi} answers both. Where limiter-servlet serves them in the same application (on
 * a servlet container), it serves none.
 */
@Provider
public final class RateLimitFeature implements Feature, AutoCloseable {

  private static final Logger LOG = Logger.getLogger(RateLimitFeature.class.getName());
  private static final String CDI_CLASS = "jakarta.enterprise.inject.spi.CDI";
  private static final String SERVLET_CLASS = "jakarta.servlet.http.HttpServletRequest";
  private static final String NAME = "RateLimitFeature";

  private final ConfigLookup presetLookup;
  private final LimiterConfig presetConfig;
  private final Limiter presetLimiter;

  /** The runtime this feature built, to close; null when it decides with another's. */
  private volatile LimiterRuntime built;

  /** The filters over the runtime, built by the first {@link #configure}. */
  private RouteFilter filter;

  /** The admin API's filter; null when {@code limiter.admin.enabled} is off. */
  private AdminFilter admin;

  /**
   * Routes from the application's CDI runtime or its configuration: for scanning and {@code
   * register(RateLimitFeature.class)}.
   */
  public RateLimitFeature() {
    this.presetLookup = null;
    this.presetConfig = null;
    this.presetLimiter = null;
  }

  /**
   * Routes from a ready configuration, over {@code limiter}'s store, which stays its creator's to
   * close.
   *
   * @throws ConfigException naming the key and the value, if the configuration is invalid
   */
  public RateLimitFeature(ConfigLookup config, Limiter limiter) {
    this.presetLookup = Objects.requireNonNull(config, "config");
    this.presetConfig = LimiterConfig.from(config);
    this.presetLimiter = Objects.requireNonNull(limiter, "limiter");
  }

  @Override
  public synchronized boolean configure(FeatureContext context) {
    if (filter == null) {
      filter = start(context.getConfiguration().getProperties());
    }
    // Pre-matching, and outermost among the response filters: the response of every other one
    // (an exception mapper's, an authentication filter's refusal) is the one that settles.
    context.register(filter, Priorities.AUTHENTICATION - 100);
    if (admin != null) {
      context.register(admin, Priorities.AUTHENTICATION - 90);
    }
    return true;
  }

  private RouteFilter start(Map<String, Object> properties) {
    ClassLoader loader = loader();
    LimiterRuntime runtime = null;
    try {
      ConfigLookup lookup;
      if (presetConfig != null) {
        lookup = presetLookup;
        runtime = built = LimiterRuntime.over(presetLimiter.store(), presetConfig, null, loader);
      } else {
        Map<String, String> params = limiterProperties(properties);
        lookup = MicroProfileConfigLookup.over(params, loader);
        runtime = params.isEmpty() && hasClass(CDI_CLASS, loader) ? CdiRuntime.runtime() : null;
        if (runtime == null) {
          // Read first, so that a configuration error leaves nothing to close.
          LimiterConfig config = LimiterConfig.from(lookup);
          runtime = built = LimiterRuntime.open(config, lookup, loader);
        }
      }
      AdminSettings adminSettings = AdminSettings.from(lookup);
      LimiterConfig config = runtime.config();
      boolean cdi = hasClass(CDI_CLASS, loader);
      Supplier<List<KeyResolver>> beans = cdi ? CdiRuntime::resolvers : List::of;
      FilteredRequest recorder = cdi ? CdiRuntime.recorder() : null;
      if (config.routes().isEmpty() && recorder == null) {
        LOG.warning(NAME + " has no limiter.route.* to apply: it limits nothing");
      }
      HttpRoutes routes =
          new HttpRoutes(
              runtime, new DryRunLog(LOG, RateLimitFeature.class, "filter"), beans, loader, true);
      if (routes.shapes()) {
        LOG.warning(RouteFilter.whyUnheld(NAME));
      }
      StartLog.started(LOG, NAME, config, null, config.store(), runtime.recorder());
      // Quarkus REST first: it may have the servlet API beside (quarkus-undertow), but no servlet
      // request behind its own.
      RouteFilter vertx =
          hasClass(VertxRouteFilter.CONTEXT_CLASS, loader)
              ? VertxRouteFilter.over(routes, recorder, NAME, LOG, loader)
              : null;
      boolean servlet = vertx == null && hasClass(SERVLET_CLASS, loader);
      if (adminSettings.enabled()) {
        LimiterRuntime deciding = runtime;
        AdminApi api = new AdminApi(adminSettings, () -> deciding);
        AdminFilter onVertx = vertx != null ? VertxAdminFilter.over(api, loader) : null;
        admin =
            onVertx != null
                ? onVertx
                : servlet ? new ServletAdminFilter(api) : new AdminFilter(api);
      }
      if (vertx != null) {
        return vertx;
      }
      return servlet
          ? new ServletRouteFilter(routes, recorder, NAME, LOG)
          : new RouteFilter(routes, recorder, NAME, LOG);
    } catch (ConfigException e) {
      close();
      List<String> problems = e.problems().stream().map(ConfigException::getMessage).toList();
      StartLog.failed(LOG, NAME, problems);
      throw e;
    } catch (RuntimeException e) {
      close();
      // E.g. a store that cannot start: the application fails here, not at the first request.
      throw new IllegalStateException(StartLog.failed(LOG, NAME, List.of("cannot start: " + e)), e);
    }
  }

  /** The {@code limiter.*} properties of the Jakarta REST configuration, as text. */
  private static Map<String, String> limiterProperties(Map<String, Object> properties) {
    Map<String, String> params = new LinkedHashMap<>();
    properties.forEach(
        (key, value) -> {
          if (key.startsWith(LimiterConfig.PREFIX) && value != null) {
            params.put(key, value.toString());
          }
        });
    return params;
  }

  private static ClassLoader loader() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return loader != null ? loader : RateLimitFeature.class.getClassLoader();
  }

  private static boolean hasClass(String name, ClassLoader loader) {
    try {
      Class.forName(name, false, RateLimitFeature.class.getClassLoader());
      Class.forName(name, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Closes the runtime this feature built, if any; a CDI runtime is the container's to close. */
  @Override
  public void close() {
    LimiterRuntime runtime = built;
    built = null;
    if (runtime != null) {
      runtime.close();
    }
  }
}
