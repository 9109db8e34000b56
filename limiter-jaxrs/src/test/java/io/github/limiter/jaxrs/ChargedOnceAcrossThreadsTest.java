package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.cdi.Limited;
import io.github.limiter.cdi.LimiterExtension;
import io.github.limiter.cdi.jaxrs.RateLimitExceededMapper;
import io.github.limiter.servlet.RateLimitFilter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.glassfish.jersey.server.ResourceConfig;
import org.jboss.weld.context.bound.BoundLiteral;
import org.jboss.weld.context.bound.BoundRequestContext;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * A routed request that calls a {@code @Limited} method under the same policy counts once, also
 * when the method runs on another thread than the request filter: what Quarkus REST does with a
 * blocking resource (filters on the event loop, the resource on a worker thread, one request scope
 * carried across). Weld SE with limiter-cdi and a real Jersey on Jetty; each request's scope is a
 * bound request context whose storage the resource binds again on its worker thread.
 */
class ChargedOnceAcrossThreadsTest {

  private static final String STORAGE = ChargedOnceAcrossThreadsTest.class.getName() + ".scope";

  @Test
  void aRouteAndALimitedMethodOnAnotherThreadCountARequestOnce() throws Exception {
    withApp(
        false,
        app -> {
          // budget: 2 a minute per X-Client, by the route /both/* and by the method
          for (String path : List.of("/both/elsewhere", "/both/here")) {
            String client = "client" + path.replace('/', '-');
            assertThat(app.get(path, "X-Client", client).statusCode()).as(path).isEqualTo(200);
            assertThat(app.get(path, "X-Client", client).statusCode()).as(path).isEqualTo(200);
            assertThat(app.get(path, "X-Client", client).statusCode()).as(path).isEqualTo(429);
          }
          // the method alone counts each call
          assertThat(app.get("/limited", "X-Client", "alone").statusCode()).isEqualTo(200);
          assertThat(app.get("/limited", "X-Client", "alone").statusCode()).isEqualTo(200);
          assertThat(app.get("/limited", "X-Client", "alone").statusCode()).isEqualTo(429);
        });
  }

  @Test
  void behindTheServletFilterTooTheRequestCountsOnce() throws Exception {
    // the servlet filter's route /both/* charges first; the Jakarta REST one and the method skip it
    withApp(
        true,
        app -> {
          assertThat(app.get("/both/here", "X-Client", "behind").statusCode()).isEqualTo(200);
          assertThat(app.get("/both/here", "X-Client", "behind").statusCode()).isEqualTo(200);
          assertThat(app.get("/both/here", "X-Client", "behind").statusCode()).isEqualTo(429);
        });
  }

  private interface Calls {
    void run(TestApp app) throws Exception;
  }

  private static void withApp(boolean servletFilter, Calls calls) throws Exception {
    Map<String, String> config =
        TestApp.props(
            "limiter.policy.budget.algorithm", "fixed-window",
            "limiter.policy.budget.limits", "2/m",
            "limiter.policy.budget.key", "header:X-Client",
            "limiter.route.both.pattern", "/both/*",
            "limiter.route.both.policies", "budget");
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    resolver.releaseConfig(resolver.getConfig(loader));
    resolver.registerConfig(
        new SmallRyeConfigBuilder()
            .withSources(new PropertiesConfigSource(config, "test", 500))
            .build(),
        loader);
    // A request scope around each request, whose storage the resource can bind on another thread.
    Filter requestScope =
        (request, response, chain) -> {
          Map<String, Object> storage = new HashMap<>();
          request.setAttribute(STORAGE, storage);
          inScope(
              storage,
              () -> {
                try {
                  chain.doFilter(request, response);
                  return null;
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
        };
    try (WeldContainer container =
            new Weld()
                .disableDiscovery()
                .addExtension(new LimiterExtension())
                .beanClasses(FilteredRequest.class, Budgeted.class)
                .initialize();
        TestApp app =
            TestApp.jersey(
                new ResourceConfig(BothResources.class)
                    .register(RateLimitFeature.class)
                    .register(RateLimitExceededMapper.class),
                requestScope,
                servletFilter ? new RateLimitFilter() : null)) {
      calls.run(app);
    } finally {
      resolver.releaseConfig(resolver.getConfig(loader));
    }
  }

  /** Runs {@code call} in the request scope kept in {@code storage}, on this thread. */
  private static <T> T inScope(Map<String, Object> storage, Supplier<T> call) {
    BoundRequestContext scope =
        CDI.current().select(BoundRequestContext.class, BoundLiteral.INSTANCE).get();
    scope.associate(storage);
    scope.activate();
    try {
      return call.get();
    } finally {
      scope.deactivate();
      scope.dissociate(storage);
    }
  }

  /** The @Limited method. */
  @ApplicationScoped
  public static class Budgeted {
    @Limited("budget")
    public String call() {
      return "limited";
    }
  }

  /**
   * /both/* pass the route and call the method: here, or on a worker thread; /limited only calls.
   */
  @Path("/")
  @Produces("text/plain")
  public static class BothResources {

    @Context private HttpServletRequest request;

    @GET
    @Path("both/here")
    public String here() {
      return CDI.current().select(Budgeted.class).get().call();
    }

    @GET
    @Path("limited")
    public String limited() {
      return here();
    }

    @GET
    @Path("both/elsewhere")
    @SuppressWarnings("unchecked")
    public String elsewhere() throws InterruptedException {
      Map<String, Object> storage = (Map<String, Object>) request.getAttribute(STORAGE);
      FutureTask<String> call = new FutureTask<>(() -> inScope(storage, this::here));
      new Thread(call, "worker").start();
      try {
        return call.get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException thrown) {
          throw thrown; // a rejection, for the mapper's 429
        }
        throw new IllegalStateException(e.getCause());
      }
    }
  }
}
