package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.cdi.Limited;
import io.github.limiter.cdi.LimitedBuildExtension;
import io.github.limiter.cdi.jaxrs.RateLimitExceededMapper;
import io.github.limiter.servlet.RateLimitFilter;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.glassfish.jersey.server.ResourceConfig;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One budget whichever adapter counts it: in one application with CDI (Weld SE with limiter-cdi)
 * and a real Jersey on Jetty, policy {@code budget} (5 an hour) is charged by the Jakarta REST
 * route {@code /routed} and by the {@code @Limited} method behind {@code /limited}; the filters
 * find limiter-cdi's runtime bean themselves. However the five calls are split, the sixth is
 * refused through either, with the same problem body; a routed request that also calls the method
 * counts once. In memory and on a real redis-server.
 */
@ExtendWith(RedisExtension.class)
class OneBudgetWithLimitedTest {

  @Test
  void oneBudgetInMemory() throws Exception {
    everySplit(Map.of("limiter.store", "memory"));
  }

  @Test
  void oneBudgetOnRedis(RedisServer redis) throws Exception {
    everySplit(
        Map.of(
            "limiter.store",
            "redis",
            "limiter.redis.url",
            redis.url(),
            "limiter.redis.key-prefix",
            "jaxrs-budget-" + UUID.randomUUID() + ":"));
  }

  private static void everySplit(Map<String, String> store) throws Exception {
    // How many of the five admitted calls go through the route, and where the sixth goes
    Object[][] splits = {{0, "routed"}, {2, "limited"}, {2, "routed"}, {5, "limited"}};
    for (Object[] split : splits) {
      int routed = (int) split[0];
      String sixth = (String) split[1];
      withApp(
          store,
          false,
          app -> {
            for (int i = 0; i < 5; i++) {
              String path = i < routed ? "/routed" : "/limited";
              assertThat(app.get(path).statusCode())
                  .as("call %d of %d routed, through %s", i + 1, routed, path)
                  .isEqualTo(200);
            }
            HttpResponse<String> refused = app.get("/" + sixth);
            assertThat(refused.statusCode()).as("sixth through %s", sixth).isEqualTo(429);
            assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.body())
                .startsWith(
                    "{\"type\":\"urn:limiter:problem:rate-limited\",\"title\":\"Too Many"
                        + " Requests\",\"status\":429,\"detail\":\"Rate limit of policy"
                        + " 'budget' exceeded; retry after ")
                .endsWith(" s.\",\"policies\":[\"budget\"]}");
            return null;
          });
    }
    // A request to /both passes the route, then the @Limited method: one charge. Behind the
    // servlet filter as well, whose route /both matches it too: still one.
    for (boolean servletFilter : new boolean[] {false, true}) {
      withApp(
          store,
          servletFilter,
          app -> {
            for (int i = 0; i < 5; i++) {
              assertThat(app.get("/both").statusCode())
                  .as("call %d of /both, servlet filter %s", i + 1, servletFilter)
                  .isEqualTo(200);
            }
            assertThat(app.get("/both").statusCode()).isEqualTo(429);
            return null;
          });
    }
  }

  private interface Calls {
    Void run(TestApp app) throws Exception;
  }

  /** Weld with limiter-cdi and Jersey with the filters, configured by MicroProfile Config alone. */
  private static void withApp(Map<String, String> store, boolean servletFilter, Calls calls)
      throws Exception {
    Map<String, String> config =
        TestApp.props(
            "limiter.policy.budget.algorithm", "fixed-window",
            "limiter.policy.budget.limits", "5/1h",
            "limiter.policy.budget.key", "constant",
            "limiter.route.budget.pattern", "/routed",
            "limiter.route.both.pattern", "/both",
            "limiter.route.both.policies", "budget",
            "limiter.route.budget.policies", "budget");
    config.putAll(store);
    config.put("limiter.redis.key-prefix", "jaxrs-budget-" + UUID.randomUUID() + ":");
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    // Only these settings: no configuration an earlier test made for this class loader
    resolver.releaseConfig(resolver.getConfig(loader));
    resolver.registerConfig(
        new SmallRyeConfigBuilder()
            .withSources(new PropertiesConfigSource(config, "test", 500))
            .build(),
        loader);
    try (WeldContainer container =
            new Weld()
                .disableDiscovery()
                .addBuildCompatibleExtensions(LimitedBuildExtension.class)
                .beanClasses(Budgeted.class)
                .initialize();
        TestApp app =
            TestApp.jersey(
                new ResourceConfig(BudgetResources.class)
                    .register(RateLimitFeature.class)
                    .register(RateLimitExceededMapper.class),
                servletFilter ? new RateLimitFilter() : null)) {
      calls.run(app);
    } finally {
      resolver.releaseConfig(resolver.getConfig(loader));
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

  /** /routed is limited by the route; /limited by the method; /both by both, counted once. */
  @Path("/")
  @Produces("text/plain")
  public static class BudgetResources {
    @GET
    @Path("routed")
    public String routed() {
      return "routed";
    }

    @GET
    @Path("limited")
    public String limited() {
      return inRequestScope(() -> CDI.current().select(Budgeted.class).get().call());
    }

    @GET
    @Path("both")
    public String both() {
      return limited();
    }

    private static String inRequestScope(Supplier<String> call) {
      RequestContextController scope = CDI.current().select(RequestContextController.class).get();
      scope.activate();
      try {
        return call.get();
      } finally {
        scope.deactivate();
      }
    }
  }
}
