package io.github.limiter.bench.overhead;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.internal.render.RateLimitResponse;
import io.github.limiter.internal.render.ResponseRenderer;
import io.github.limiter.servlet.RateLimitFilter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The server that {@code overhead.sh} loads with wrk (not a test). Without the filter: a trivial
 * servlet at {@code /bare/x}, a small JSON endpoint at {@code /bare/json} (what a 429 protects),
 * the trivial servlet with the two rate-limit headers as constants at {@code /bare/headers}, and
 * the filter's 429 written from constants at {@code /bare/problem}. Behind the filter, the trivial
 * servlet at {@code /app/plain} (unmatched), {@code /app/limited} (admitted: a limit never reached)
 * and {@code /app/rejected} (every request but the first gets the 429), and at {@code
 * /quiet/limited} as {@code /app/limited} with {@code limiter.http.headers=false}, to show what the
 * headers cost, and at {@code /top/limited} as {@code /app/limited} with {@code
 * limiter.top-keys.enabled=true}, to show what counting the top keys costs. In-memory store, keyed
 * by client address.
 *
 * <p>Metrics: {@code /app} and {@code /quiet} have them off ({@code
 * limiter.metrics.enabled=false}). {@code /metered/limited} is {@code /app/limited} recording
 * through limiter-metrics on Micrometer's global registry, which holds a {@code
 * PrometheusMeterRegistry}, and {@code /otel/limited} the same on OpenTelemetry's global meter, an
 * SDK with an in-memory reader: the filter in a plain servlet container, no CDI. {@code
 * /bare/scrape} serves the Prometheus scrape and, as a comment, the OpenTelemetry count of admitted
 * decisions, so the script can check that both recorded. Prints {@code port=N} and serves until
 * killed.
 */
public final class OverheadServer {

  /** The trivial servlet: a fixed 2-byte body. */
  public static final class Trivial extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setContentType("text/plain");
      response.setContentLength(OK.length);
      response.getOutputStream().write(OK);
    }
  }

  /**
   * A small but real endpoint, for the 429's cost beside what it protects: renders a list of 20
   * items as a 1 kB JSON document, as an API's read endpoint would once its data is in memory.
   */
  public static final class Json extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      StringBuilder json = new StringBuilder(1200).append("{\"items\":[");
      for (int i = 0; i < 20; i++) {
        json.append(i == 0 ? "" : ",")
            .append("{\"id\":")
            .append(i)
            .append(",\"name\":\"item-")
            .append(i)
            .append("\",\"price\":")
            .append(100 + 7 * i)
            .append('.')
            .append(i % 10)
            .append("9,\"stock\":")
            .append(i * 3 % 17)
            .append('}');
      }
      byte[] body = json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
      response.setContentType("application/json");
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
    }
  }

  /**
   * The filter's 429 as a servlet writes it, from constants rendered once at start: what the
   * response itself costs the container, apart from the filter's deciding and rendering.
   */
  public static final class Problem extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final long HOUR_NANOS = 3_600_000_000_000L;
    private static final RateLimitResponse REJECTION =
        new ResponseRenderer(HttpSettings.DEFAULTS)
            .rejection(
                Policy.tokenBucket("rejected", Limit.parse("1/h")),
                Decision.limited("rejected", Limit.parse("1/h"), HOUR_NANOS, HOUR_NANOS));
    private static final byte[] BODY = REJECTION.body().getBytes(StandardCharsets.UTF_8);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setStatus(REJECTION.status());
      for (Map.Entry<String, String> header : REJECTION.headers()) {
        response.setHeader(header.getKey(), header.getValue());
      }
      response.setContentType(REJECTION.contentType());
      response.setContentLength(BODY.length);
      response.getOutputStream().write(BODY);
    }
  }

  /**
   * The trivial servlet with the two rate-limit headers an admitted request gets, as constants:
   * what the container charges for sending them, apart from the filter's deciding and rendering.
   */
  public static final class Headers extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.addHeader("RateLimit-Policy", "\"limited\";q=1000000;w=1");
      response.addHeader("RateLimit", "\"limited\";r=999999;t=1");
      response.setContentType("text/plain");
      response.setContentLength(OK.length);
      response.getOutputStream().write(OK);
    }
  }

  /**
   * The Prometheus scrape of Micrometer's registry, then a comment line {@code # otel
   * limiter.decisions admitted=N} with OpenTelemetry's count of admitted decisions.
   */
  public static final class Scrape extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");
    private final transient PrometheusMeterRegistry prometheus;
    private final transient InMemoryMetricReader otel;

    Scrape(PrometheusMeterRegistry prometheus, InMemoryMetricReader otel) {
      this.prometheus = prometheus;
      this.otel = otel;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      long admitted =
          otel.collectAllMetrics().stream()
              .filter(m -> m.getName().equals("limiter.decisions"))
              .flatMap(m -> m.getLongSumData().getPoints().stream())
              .filter(p -> "admitted".equals(p.getAttributes().get(OUTCOME)))
              .mapToLong(LongPointData::getValue)
              .sum();
      byte[] body =
          (prometheus.scrape() + "# otel limiter.decisions admitted=" + admitted + "\n")
              .getBytes(StandardCharsets.UTF_8);
      response.setContentType("text/plain");
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
    }
  }

  private OverheadServer() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> metered =
        Map.of(
            "limiter.policy.limited.algorithm", "token-bucket",
            "limiter.policy.limited.limits", "1000000/s burst=1000000",
            "limiter.policy.rejected.algorithm", "token-bucket",
            "limiter.policy.rejected.limits", "1/h",
            "limiter.route.limited.pattern", "/limited/*",
            "limiter.route.limited.policies", "limited",
            "limiter.route.rejected.pattern", "/rejected/*",
            "limiter.route.rejected.policies", "rejected");
    Map<String, String> props = with(metered, "limiter.metrics.enabled", "false");
    // Set up before any filter starts: each finds its backends once, at init.
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Metrics.addRegistry(prometheus);
    InMemoryMetricReader otelReader = InMemoryMetricReader.create();
    GlobalOpenTelemetry.set(
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(otelReader).build())
            .build());
    ServletContextHandler bare = new ServletContextHandler("/bare");
    bare.addServlet(new ServletHolder(new Scrape(prometheus, otelReader)), "/scrape");
    bare.addServlet(new ServletHolder(new Json()), "/json");
    bare.addServlet(new ServletHolder(new Problem()), "/problem");
    bare.addServlet(new ServletHolder(new Headers()), "/headers");
    bare.addServlet(new ServletHolder(new Trivial()), "/*");
    ServletContextHandler app = new ServletContextHandler("/app");
    app.addServlet(new ServletHolder(new Trivial()), "/*");
    app.addServletContainerInitializer((classes, ctx) -> addFilter(ctx, props));
    ServletContextHandler quiet = new ServletContextHandler("/quiet");
    quiet.addServlet(new ServletHolder(new Trivial()), "/*");
    Map<String, String> quietProps = with(props, "limiter.http.headers", "false");
    quiet.addServletContainerInitializer((classes, ctx) -> addFilter(ctx, quietProps));
    ServletContextHandler top = new ServletContextHandler("/top");
    top.addServlet(new ServletHolder(new Trivial()), "/*");
    Map<String, String> topProps = with(props, "limiter.top-keys.enabled", "true");
    top.addServletContainerInitializer((classes, ctx) -> addFilter(ctx, topProps));
    ServletContextHandler micrometer = new ServletContextHandler("/metered");
    micrometer.addServlet(new ServletHolder(new Trivial()), "/*");
    Map<String, String> micrometerProps =
        with(metered, "limiter.metrics.opentelemetry.enabled", "false");
    micrometer.addServletContainerInitializer((classes, ctx) -> addFilter(ctx, micrometerProps));
    ServletContextHandler otel = new ServletContextHandler("/otel");
    otel.addServlet(new ServletHolder(new Trivial()), "/*");
    Map<String, String> otelProps = with(metered, "limiter.metrics.micrometer.enabled", "false");
    otel.addServletContainerInitializer((classes, ctx) -> addFilter(ctx, otelProps));
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(args.length > 0 ? Integer.parseInt(args[0]) : 0);
    server.addConnector(connector);
    server.setHandler(new CpuMeter(new Handler.Sequence(bare, app, quiet, top, micrometer, otel)));
    server.start();
    System.out.println("port=" + connector.getLocalPort());
    System.out.flush();
    new CountDownLatch(1).await();
  }

  private static Map<String, String> with(Map<String, String> props, String key, String value) {
    Map<String, String> copy = new HashMap<>(props);
    copy.put(key, value);
    return Map.copyOf(copy);
  }

  /**
   * RateLimitFilter on every path of {@code context}, configured by init-params, as an application
   * registers it.
   */
  private static void addFilter(ServletContext context, Map<String, String> initParams) {
    FilterRegistration.Dynamic registration = context.addFilter("limiter", RateLimitFilter.class);
    registration.setAsyncSupported(true);
    initParams.forEach(registration::setInitParameter);
    registration.addMappingForUrlPatterns(
        EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC), false, "/*");
  }
}
