package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.junit.jupiter.api.Test;

/**
 * Configuration: bad values fail the deployment naming key and value; MicroProfile Config and
 * init-params.
 */
class ConfigTest {

  private static final Map<String, String> VALID =
      Props.of(
          "limiter.policy.api.algorithm", "fixed-window",
          "limiter.policy.api.limits", "3/1m",
          "limiter.route.api.pattern", "/*",
          "limiter.route.api.policies", "api");

  private static void assertDeploymentFails(Map<String, String> props, String key, String value) {
    assertThatThrownBy(() -> TestServer.withFilter(props).close())
        .as(key)
        .hasStackTraceContaining("jakarta.servlet.ServletException")
        .hasStackTraceContaining(key + ":")
        .hasStackTraceContaining("'" + value + "'");
  }

  @Test
  void invalidValuesFailTheDeploymentNamingKeyAndValue() {
    assertDeploymentFails(
        Props.with(VALID, "limiter.http.trusted-proxies", "127.0.0.1/32, 10.0.0.0/33"),
        "limiter.http.trusted-proxies",
        "10.0.0.0/33");
    assertDeploymentFails(
        Props.with(VALID, "limiter.http.trusted-proxies", "proxy.example.com"),
        "limiter.http.trusted-proxies",
        "proxy.example.com");
    assertDeploymentFails(
        Props.with(VALID, "limiter.policy.api.limits", "10 per sec"),
        "limiter.policy.api.limits",
        "10 per sec");
    assertDeploymentFails(
        Props.with(VALID, "limiter.http.forwarded-header", "x-real-ip"),
        "limiter.http.forwarded-header",
        "x-real-ip");
    assertDeploymentFails(
        Props.with(VALID, "limiter.route.api.policies", "nosuch"),
        "limiter.route.api.policies",
        "nosuch");
    assertDeploymentFails(
        Props.with(VALID, "limiter.memory.max-key", "10"), "limiter.memory.max-key", "10");
    assertDeploymentFails(Props.with(VALID, "limiter.stor", "redis"), "limiter.stor", "redis");
    assertThatThrownBy(
            () ->
                TestServer.withFilter(Props.with(VALID, "limiter.policy.api.colour", "blue"))
                    .close())
        .hasStackTraceContaining("limiter.policy.api.colour: unknown key");
    assertThatThrownBy(
            () -> TestServer.withFilter(Props.with(VALID, "limiter.store", "nosuch")).close())
        .hasStackTraceContaining("limiter.store: no store named 'nosuch'");
  }

  /** A filter without init-params reads MicroProfile Config of its application's class loader. */
  @Test
  void readsMicroProfileConfig() throws Exception {
    ClassLoader app = new URLClassLoader(new URL[0], getClass().getClassLoader());
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    Config config =
        new SmallRyeConfigBuilder()
            .withSources(
                new PropertiesConfigSource(
                    Props.with(VALID, "limiter.policy.api.limits", "1/1m"), "test", 500))
            .build();
    resolver.registerConfig(config, app);
    try {
      ServletContextHandler context = TestServer.context(TestServer.filter(Map.of()));
      context.setClassLoader(app);
      try (TestServer server = TestServer.start(context)) {
        assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(200);
        assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(429);
      }
      // Init-params win over MicroProfile Config, which fills in the rest.
      context = TestServer.context(TestServer.filter(Map.of("limiter.policy.api.limits", "3/1m")));
      context.setClassLoader(app);
      try (TestServer server = TestServer.start(context)) {
        for (int i = 0; i < 3; i++) {
          assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(200);
        }
        assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(429);
      }
    } finally {
      resolver.releaseConfig(config);
    }
  }

  /**
   * A policy and route set only in environment variables (as in a container image) work once
   * limiter.policies and limiter.routes name them; a variable of no known key fails the deployment.
   */
  @Test
  void environmentVariablesThroughMicroProfileConfig() throws Exception {
    Map<String, String> environment =
        Map.of(
            "LIMITER_POLICIES", "api",
            "LIMITER_ROUTES", "all",
            "LIMITER_POLICY_API_ALGORITHM", "fixed-window",
            "LIMITER_POLICY_API_LIMITS", "2/1m",
            "LIMITER_ROUTE_ALL_PATTERN", "/*",
            "LIMITER_ROUTE_ALL_POLICIES", "api",
            // Keys with a dash, which SmallRye would otherwise also list as
            // limiter.http.trusted.proxies
            "LIMITER_HTTP_TRUSTED_PROXIES", "10.0.0.0/8",
            "LIMITER_POLICY_API_ON_MISSING_KEY", "allow");
    try (TestServer server = withEnvironment(environment)) {
      assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(200);
      assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(200);
      assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(429);
    }
    Map<String, String> unlisted = new HashMap<>(environment);
    unlisted.remove("LIMITER_POLICIES");
    assertThatThrownBy(() -> withEnvironment(unlisted).close())
        .hasStackTraceContaining("LIMITER_POLICY_API_")
        .hasStackTraceContaining("listed in limiter.policies");
    Map<String, String> typo = Props.with(environment, "LIMITER_POLICY_API_LIMTS", "5/1m");
    assertThatThrownBy(() -> withEnvironment(typo).close())
        .hasStackTraceContaining("LIMITER_POLICY_API_LIMTS: matches no known key")
        .hasStackTraceContaining("'5/1m'");
  }

  /**
   * A server whose filter reads MicroProfile Config made of {@code environment} as SmallRye's own
   * environment source.
   */
  private static TestServer withEnvironment(Map<String, String> environment) throws Exception {
    ClassLoader app = new URLClassLoader(new URL[0], ConfigTest.class.getClassLoader());
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    Config config =
        new SmallRyeConfigBuilder().withSources(new EnvConfigSource(environment, 300)).build();
    resolver.registerConfig(config, app);
    try {
      ServletContextHandler context = TestServer.context(TestServer.filter(Map.of()));
      context.setClassLoader(app);
      return TestServer.start(context);
    } finally {
      resolver.releaseConfig(config); // the filter read its configuration in init
    }
  }

  /**
   * Without MicroProfile Config on the application's class path, init-params alone configure the
   * filter.
   */
  @Test
  void initParamsWithoutMicroProfile() throws Exception {
    ClassLoader withoutMicroProfile =
        new ClassLoader(getClass().getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.eclipse.microprofile.")) {
              throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
          }
        };
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    // Were MicroProfile Config consulted, this would reject everything.
    Config config =
        new SmallRyeConfigBuilder()
            .withSources(
                new PropertiesConfigSource(
                    Map.of("limiter.route.api.methods", "GET", "limiter.policy.api.limits", "1/1h"),
                    "test",
                    500))
            .build();
    resolver.registerConfig(config, withoutMicroProfile);
    try {
      ServletContextHandler context = TestServer.context(TestServer.filter(VALID));
      context.setClassLoader(withoutMicroProfile);
      try (TestServer server = TestServer.start(context)) {
        for (int i = 0; i < 3; i++) {
          assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(200);
        }
        assertThat(Http.get(server.uri("/x")).statusCode()).isEqualTo(429);
      }
    } finally {
      resolver.releaseConfig(config);
    }
  }
}
