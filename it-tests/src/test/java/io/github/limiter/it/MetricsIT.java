package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.cdi.GreetServlet;
import io.github.limiter.it.app.cdi.GreetingService;
import io.github.limiter.it.app.hello.HelloServlet;
import io.github.limiter.it.app.metrics.ScrapeServlet;
import io.github.limiter.it.app.servlet.AnnotatedRateLimitFilter;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.Prometheus;
import io.github.limiter.it.harness.Settings;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Limiter's decisions on a Micrometer registry that the application itself produces as a CDI bean
 * and serves in the Prometheus format ({@code /scrape}): the route on a server without a Micrometer
 * subsystem, WildFly's default configuration. Both adapters are counted: the filter's {@code burst}
 * and {@code @Limited("bean")}. On Payara the same decisions also reach the server's own {@code
 * /metrics} (MicroProfile Metrics): two backends at once.
 *
 * <p>Readiness is asserted on Payara only (in {@code DemoTwoNodesIT} and {@code RedisStoreIT}): the
 * WildFly this suite boots runs the default {@code standalone.xml}, whose {@code health} subsystem
 * serves {@code /health/ready} on the management port with the server's own checks but never an
 * application's {@code @Readiness} beans; that takes the {@code microprofile-health-smallrye}
 * subsystem of {@code standalone-microprofile.xml}.
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class MetricsIT {

  @Deployment
  static WebArchive app() {
    // Not "metrics.war": on Payara its context root would hide the server's own /metrics.
    WebArchive war =
        ShrinkWrap.create(WebArchive.class, "metered.war")
            .addClasses(
                HelloServlet.class,
                GreetServlet.class,
                GreetingService.class,
                ScrapeServlet.class,
                ScrapeServlet.Registry.class,
                AnnotatedRateLimitFilter.class)
            .addAsResource(
                new File("src/test/webapps/metrics/META-INF/microprofile-config.properties"),
                "META-INF/microprofile-config.properties");
    try (Stream<Path> jars = Files.list(Path.of(Settings.required("it.micrometer.libs.dir")))) {
      jars.filter(jar -> jar.toString().endsWith(".jar"))
          .forEach(jar -> war.addAsLibrary(jar.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return war;
  }

  @ArquillianResource URL url;

  private URI uri(String path) {
    return Deployed.base(url).resolve(path);
  }

  @Test
  void everyDecisionOfTheFilterAndOfLimitedIsCountedOnTheApplicationsRegistry() {
    int[] filter = new int[600];
    int[] limited = new int[600];
    for (int i = 0; i < 6; i++) {
      filter[Http.get(uri("hello")).statusCode()]++;
      limited[Http.get(uri("greet?user=metrics")).statusCode()]++;
    }
    // 3 a minute through the filter, 2 through @Limited: a window boundary may admit up to twice
    // that.
    assertThat(filter[200] + filter[429]).isEqualTo(6);
    assertThat(filter[429]).isBetween(1, 3);
    assertThat(limited[200] + limited[429]).isEqualTo(6);
    assertThat(limited[429]).isBetween(2, 4);

    String scrape = Http.get(uri("scrape")).body();

    assertDecisions(scrape, "burst", filter);
    assertDecisions(scrape, "bean", limited);
    // The in-memory store's decision is a compare-and-set, cheaper than timing it: not timed.
    assertThat(scrape).doesNotContain("limiter_store_duration_seconds_count{");
    if (Settings.isPayara()) {
      String server =
          Http.get(
                  URI.create("http://127.0.0.1:" + url.getPort() + "/metrics"),
                  "Accept",
                  "text/plain")
              .body();
      assertDecisions(server, "burst", filter);
      assertDecisions(server, "bean", limited);
    }
  }

  private static void assertDecisions(String scrape, String policy, int[] statuses) {
    assertThat(
            Prometheus.sum(
                scrape, "limiter_decisions_total", "policy", policy, "outcome", "rejected"))
        .as("limiter_decisions_total{policy=%s,outcome=rejected}", policy)
        .isEqualTo(statuses[429]);
    assertThat(
            Prometheus.sum(
                scrape, "limiter_decisions_total", "policy", policy, "outcome", "admitted"))
        .as("limiter_decisions_total{policy=%s,outcome=admitted}", policy)
        .isEqualTo(statuses[200]);
  }
}
