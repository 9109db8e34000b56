package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.servlet.RateLimitFilter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * RateLimitFilter in a plain servlet container without CDI (a real Jetty 12 on 127.0.0.1), as on
 * Tomcat or Jetty: it records on Micrometer's global registry and OpenTelemetry's global meter,
 * once the application has set them up, and nowhere when {@code limiter.metrics.enabled=false}. The
 * policy has a name of its own: SmallRye Metrics, in other tests of this JVM, leaves its meters in
 * Micrometer's global registry.
 */
class PlainServletContainerTest {

  private static final Map<String, String> CONFIG =
      Map.of(
          "limiter.policy.plain.algorithm", "token-bucket",
          "limiter.policy.plain.limits", "3/h",
          "limiter.route.plain.pattern", "/api/*",
          "limiter.route.plain.policies", "plain");
  private static final AttributeKey<String> POLICY = AttributeKey.stringKey("policy");
  private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");

  private final SimpleMeterRegistry micrometer = new SimpleMeterRegistry();
  private final InMemoryMetricReader otel = InMemoryMetricReader.create();
  private final HttpClient client = HttpClient.newHttpClient();
  private Server server;
  private ServletContextHandler context;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
    Metrics.globalRegistry.remove(micrometer);
    Metrics.globalRegistry.clear();
    GlobalOpenTelemetry.resetForTest();
  }

  @Test
  void everyDecisionIsCountedOnBothGlobalBackends() throws Exception {
    // Given the application set up both global backends before the filter starts
    Metrics.addRegistry(micrometer);
    GlobalOpenTelemetry.set(
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(otel).build())
            .build());
    int port = start(CONFIG);

    // When
    int[] statuses = burst(port, 5);

    // Then: 3 admitted, 2 rejected, on each backend and in stats() alike
    assertThat(statuses[200]).isEqualTo(3);
    assertThat(statuses[429]).isEqualTo(2);
    assertThat(micrometerDecisions("admitted")).isEqualTo(3);
    assertThat(micrometerDecisions("rejected")).isEqualTo(2);
    // the in-memory store's decision is not timed (a compare-and-set, cheaper than timing it)
    assertThat(micrometer.find("limiter.store.duration").tag("store", "memory").timer()).isNull();
    Collection<MetricData> metrics = otel.collectAllMetrics();
    assertThat(otelDecisions(metrics, "admitted")).isEqualTo(3);
    assertThat(otelDecisions(metrics, "rejected")).isEqualTo(2);
    RateLimitFilter.Stats.Counts counts = stats().counts("plain");
    assertThat(counts.admitted()).isEqualTo(3);
    assertThat(counts.rejected()).isEqualTo(2);
  }

  @Test
  void metricsSwitchedOffRecordNothingAndStatsStillCount() throws Exception {
    // Given a global registry, but metrics switched off for this filter
    Metrics.addRegistry(micrometer);
    Map<String, String> config = new HashMap<>(CONFIG);
    config.put("limiter.metrics.enabled", "false");
    int port = start(config);

    // When
    int[] statuses = burst(port, 4);

    // Then
    assertThat(statuses[429]).isEqualTo(1);
    assertThat(Search.in(micrometer).tag("policy", "plain").meters())
        .extracting(m -> m.getId().toString())
        .isEmpty();
    assertThat(stats().counts("plain").rejected()).isEqualTo(1);
  }

  /** The trivial servlet behind the filter. */
  public static final class Ok extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setContentType("text/plain");
      response.getWriter().write("ok");
    }
  }

  /** Starts Jetty with the filter registered by class and {@code config} as init-params. */
  private int start(Map<String, String> config) throws Exception {
    context = new ServletContextHandler("/app");
    context.addServlet(new ServletHolder(new Ok()), "/*");
    context.addServletContainerInitializer(
        (classes, ctx) -> {
          FilterRegistration.Dynamic filter = ctx.addFilter("limiter", RateLimitFilter.class);
          config.forEach(filter::setInitParameter);
          filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        });
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(context);
    server.setStopTimeout(0);
    server.start();
    return connector.getLocalPort();
  }

  private int[] burst(int port, int requests) throws Exception {
    int[] statuses = new int[600];
    for (int i = 0; i < requests; i++) {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/app/api/x")).build(),
              HttpResponse.BodyHandlers.ofString());
      statuses[response.statusCode()]++;
    }
    return statuses;
  }

  private RateLimitFilter.Stats stats() {
    return (RateLimitFilter.Stats)
        context.getServletContext().getAttribute(RateLimitFilter.statsAttribute("limiter"));
  }

  private double micrometerDecisions(String outcome) {
    return micrometer
        .get("limiter.decisions")
        .tags("policy", "plain", "outcome", outcome, "verified", "true")
        .counter()
        .count();
  }

  private static long otelDecisions(Collection<MetricData> metrics, String outcome) {
    return metrics.stream()
        .filter(m -> m.getName().equals("limiter.decisions"))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(p -> "plain".equals(p.getAttributes().get(POLICY)))
        .filter(p -> outcome.equals(p.getAttributes().get(OUTCOME)))
        .mapToLong(LongPointData::getValue)
        .sum();
  }
}
