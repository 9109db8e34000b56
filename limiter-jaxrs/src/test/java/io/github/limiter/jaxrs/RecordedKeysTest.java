package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.cdi.Limited;
import io.github.limiter.cdi.LimiterExtension;
import io.github.limiter.cdi.jaxrs.RateLimitExceededMapper;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.Filter;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.glassfish.jersey.server.ResourceConfig;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * {@code @Limited} keys from the request the filter recorded, where the container offers no servlet
 * request bean: Weld SE with limiter-cdi and a real Jersey on Jetty, whose requests run in a
 * request scope (as a container's do), and no route at all. Without the recording, every call here
 * would be keyed by the one constant key.
 */
class RecordedKeysTest {

  @Test
  void limitedReadsHeaderAndAddressKeysFromTheFilteredRequest() throws Exception {
    withApp(
        app -> {
          // per-client: 1 a minute per X-Client
          assertThat(app.get("/client", "X-Client", "a").statusCode()).isEqualTo(200);
          assertThat(app.get("/client", "X-Client", "a").statusCode()).isEqualTo(429);
          assertThat(app.get("/client", "X-Client", "b").statusCode()).isEqualTo(200);
          // per-address: 1 a minute per client; 127.0.0.1 is a trusted proxy
          assertThat(app.get("/address", "X-Forwarded-For", "203.0.113.1").statusCode())
              .isEqualTo(200);
          assertThat(app.get("/address", "X-Forwarded-For", "203.0.113.1").statusCode())
              .isEqualTo(429);
          assertThat(app.get("/address", "X-Forwarded-For", "203.0.113.2").statusCode())
              .isEqualTo(200);
          assertThat(app.get("/address").statusCode()).isEqualTo(200); // 127.0.0.1 itself
        });
  }

  private interface Calls {
    void run(TestApp app) throws Exception;
  }

  private static void withApp(Calls calls) throws Exception {
    Map<String, String> config =
        TestApp.props(
            "limiter.http.trusted-proxies", "127.0.0.1/32",
            "limiter.policy.per-client.algorithm", "fixed-window",
            "limiter.policy.per-client.limits", "1/m",
            "limiter.policy.per-client.key", "header:X-Client",
            "limiter.policy.per-address.algorithm", "fixed-window",
            "limiter.policy.per-address.limits", "1/m",
            "limiter.policy.per-address.key", "remote-address");
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    resolver.releaseConfig(resolver.getConfig(loader));
    resolver.registerConfig(
        new SmallRyeConfigBuilder()
            .withSources(new PropertiesConfigSource(config, "test", 500))
            .build(),
        loader);
    // What a container does for each HTTP request: a request scope around it.
    Filter requestScope =
        (request, response, chain) -> {
          RequestContextController scope =
              CDI.current().select(RequestContextController.class).get();
          scope.activate();
          try {
            chain.doFilter(request, response);
          } finally {
            scope.deactivate();
          }
        };
    try (WeldContainer container =
            new Weld()
                .disableDiscovery()
                .addExtension(new LimiterExtension())
                .beanClasses(FilteredRequest.class, Keyed.class)
                .initialize();
        TestApp app =
            TestApp.jersey(
                new ResourceConfig(KeyedResources.class)
                    .register(RateLimitFeature.class)
                    .register(RateLimitExceededMapper.class),
                requestScope)) {
      calls.run(app);
    } finally {
      resolver.releaseConfig(resolver.getConfig(loader));
    }
  }

  /** The @Limited methods, with the keys of their policies. */
  @ApplicationScoped
  public static class Keyed {
    @Limited("per-client")
    public String client() {
      return "client";
    }

    @Limited("per-address")
    public String address() {
      return "address";
    }
  }

  @Path("/")
  @Produces("text/plain")
  public static class KeyedResources {
    @GET
    @Path("client")
    public String client() {
      return CDI.current().select(Keyed.class).get().client();
    }

    @GET
    @Path("address")
    public String address() {
      return CDI.current().select(Keyed.class).get().address();
    }
  }
}
