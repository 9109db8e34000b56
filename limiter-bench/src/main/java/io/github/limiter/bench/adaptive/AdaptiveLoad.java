package io.github.limiter.bench.adaptive;

import io.github.limiter.servlet.RateLimitFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The adaptive concurrency load harness (not a test): an embedded Jetty on 127.0.0.1 serving a
 * {@link CapacityBackend} of 8 slots at 20 ms (400 requests a second), driven open-loop by {@link
 * OpenLoop} at 0.5, 1, 2 and 3 times that, behind each protection in turn: none; Limiter's fixed
 * concurrency limit set right (8), too low (4) and too high (32); Netflix concurrency-limits'
 * Gradient2; Limiter's adaptive limit. Then the backend's capacity changes mid-run (8, 4, 16), and
 * 10% of the traffic is critical at 3 times the load. Each run gets a fresh server, so no limit
 * carries over. Writes a Markdown table and the "Done when" ratios of issue 27.
 *
 * <pre>
 *   limiter-bench/run-adaptive.sh            # the full run, about 4 minutes
 *   limiter-bench/run-adaptive.sh --smoke    # every kind of run once, briefly (about 20 s)
 * </pre>
 */
public final class AdaptiveLoad implements AutoCloseable {

  static final int CAPACITY = 8;
  static final int CAPACITY_PER_SECOND = CAPACITY * 1000 / CapacityBackend.SERVICE_MILLIS;
  static final long GOOD_NANOS = 200_000_000L;

  /** A protection in front of the backend. */
  enum Variant {
    NONE("no limiter"),
    FIXED_RIGHT("Limiter fixed 8"),
    FIXED_LOW("Limiter fixed 4"),
    FIXED_HIGH("Limiter fixed 32"),
    GRADIENT2("Netflix Gradient2"),
    ADAPTIVE("Limiter adaptive");

    final String label;

    Variant(String label) {
      this.label = label;
    }
  }

  /** What one run measured, over its measured seconds. */
  record Result(
      String label,
      double load,
      double goodput,
      double p50,
      double p99,
      double rejected,
      double failed,
      Split critical,
      Split sheddable,
      double sheddableShareOfRejections) {

    /** Of the critical requests, the share answered 200 within 200 ms; NaN with none. */
    double criticalGood() {
      return critical.good();
    }
  }

  /**
   * What the requests of one criticality got, as shares of them: answered 200 within 200 ms,
   * refused (429/503), answered 200 but late, failed (504, timeout). NaN when there were none.
   */
  record Split(long requests, double good, double rejected, double late, double failed) {
    static final Split NONE = new Split(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    static Split of(long[] counts) {
      long n = counts[0];
      return n == 0
          ? NONE
          : new Split(
              n,
              (double) counts[1] / n,
              (double) counts[2] / n,
              (double) counts[3] / n,
              (double) counts[4] / n);
    }
  }

  private final boolean smoke;
  private final boolean criticalityOnly;
  private final double warmUp;
  private final double measured;
  private final OpenLoop client = new OpenLoop();

  private AdaptiveLoad(boolean smoke, boolean criticalityOnly) {
    this.smoke = smoke;
    this.criticalityOnly = criticalityOnly;
    this.warmUp = smoke ? 0.5 : 2;
    this.measured = smoke ? 1 : 4;
  }

  public static void main(String[] args) throws Exception {
    boolean smoke = Arrays.asList(args).contains("--smoke");
    boolean criticalityOnly = Arrays.asList(args).contains("--criticality");
    Path out =
        Path.of(
            args.length > 0 && !args[args.length - 1].startsWith("--")
                ? args[args.length - 1]
                : "target/adaptive-results.md");
    String report;
    try (AdaptiveLoad harness = new AdaptiveLoad(smoke, criticalityOnly)) {
      report = harness.runAll();
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, report);
    System.out.println(report);
    System.out.println("written: " + out);
    System.exit(0); // the HTTP client's selector thread outlives its executor
  }

  private String runAll() throws Exception {
    String loadBefore = loadAverage();
    if (!smoke) {
      // The JIT's warm-up, client and server: a run at the capacity, not reported.
      steady(Variant.ADAPTIVE, 1);
    }
    double[] loads =
        criticalityOnly ? new double[0] : smoke ? new double[] {3} : new double[] {0.5, 1, 2, 3};
    Variant[] variants =
        smoke ? new Variant[] {Variant.GRADIENT2, Variant.ADAPTIVE} : Variant.values();
    List<Result> results = new ArrayList<>();
    for (double load : loads) {
      for (Variant variant : variants) {
        Result result = steady(variant, load);
        System.err.printf(Locale.ROOT, "%s at %.1fx: %s%n", variant.label, load, result);
        results.add(result);
      }
    }
    Map<Variant, List<Phase>> changes = new LinkedHashMap<>();
    for (Variant variant :
        criticalityOnly
            ? new Variant[0]
            : smoke
                ? new Variant[] {Variant.ADAPTIVE}
                : new Variant[] {Variant.FIXED_RIGHT, Variant.GRADIENT2, Variant.ADAPTIVE}) {
      List<Phase> phases = capacityChange(variant);
      System.err.printf(Locale.ROOT, "%s, capacity 8 -> 4 -> 16: %s%n", variant.label, phases);
      changes.put(variant, phases);
    }
    List<Result> critical = new ArrayList<>();
    critical.add(criticality("Limiter adaptive, criticality", Variant.ADAPTIVE, Map.of()));
    if (!smoke) {
      critical.add(
          criticality(
              "Limiter fixed 8, criticality, critical-share 0.1",
              Variant.FIXED_RIGHT,
              Map.of("limiter.policy.backend.critical-share", "0.1")));
      critical.add(
          criticality(
              "Limiter fixed 8, criticality, critical-share 0.2",
              Variant.FIXED_RIGHT,
              Map.of("limiter.policy.backend.critical-share", "0.2")));
    }
    critical.forEach(r -> System.err.println(r));
    return AdaptiveReport.markdown(
        smoke, warmUp, measured, results, changes, critical, loadBefore, loadAverage());
  }

  /** One protection at {@code load} times the capacity, steady. */
  private Result steady(Variant variant, double load) throws Exception {
    CapacityBackend backend = new CapacityBackend(CAPACITY);
    try (Running server = start(variant, backend, Map.of())) {
      int perSecond = (int) Math.round(load * CAPACITY_PER_SECOND);
      OpenLoop.Outcomes outcomes =
          client.run(server.uri, perSecond, warmUp + measured, 0, second -> {});
      return summarize(variant.label, load, outcomes, (long) (warmUp * 1e9), measured);
    }
  }

  /** A phase of the capacity-change run. */
  record Phase(int capacity, double goodput, double settleSeconds) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "capacity %d: goodput %.0f/s (%.0f%%), settled %s",
          capacity,
          goodput,
          100 * goodput / (capacity * 1000.0 / CapacityBackend.SERVICE_MILLIS),
          settleSeconds < 0
              ? "not within the phase"
              : String.format(Locale.ROOT, "in %.2f s", settleSeconds));
    }
  }

  /**
   * 3 times the first capacity, while the backend has 8 slots, then 4, then 16: each phase's
   * goodput over its last part, and how long after the change goodput came and stayed within 10% of
   * the new capacity (in a rolling second).
   */
  private List<Phase> capacityChange(Variant variant) throws Exception {
    int[] capacities = {8, 4, 16};
    double phase = smoke ? 1 : 8;
    CapacityBackend backend = new CapacityBackend(capacities[0]);
    OpenLoop.Outcomes outcomes;
    try (Running server = start(variant, backend, Map.of())) {
      outcomes =
          client.run(
              server.uri,
              3 * CAPACITY_PER_SECOND,
              phase * capacities.length,
              0,
              second -> {
                int index = (int) (second / phase);
                if (second > 0
                    && second == Math.round(index * phase)
                    && index < capacities.length) {
                  backend.resize(capacities[index]);
                }
              });
    }
    List<Phase> phases = new ArrayList<>();
    for (int p = 0; p < capacities.length; p++) {
      double from = p * phase;
      double to = from + phase;
      double capacity = capacities[p] * 1000.0 / CapacityBackend.SERVICE_MILLIS;
      double goodput = goodput(outcomes, from + phase / 2, to);
      phases.add(new Phase(capacities[p], goodput, settle(outcomes, from, to, capacity)));
    }
    return phases;
  }

  /**
   * Seconds from {@code from} after which every rolling second until {@code to} has goodput within
   * 10% of {@code capacity}; -1 if none.
   */
  private static double settle(
      OpenLoop.Outcomes outcomes, double from, double to, double capacity) {
    double step = 0.25;
    double settled = -1;
    for (double t = from; t + 1 <= to + 1e-9; t += step) {
      double g = goodput(outcomes, t, t + 1);
      boolean within = Math.abs(g - capacity) <= 0.1 * capacity;
      if (within && settled < 0) {
        settled = t - from;
      } else if (!within) {
        settled = -1;
      }
    }
    return settled;
  }

  /** Successes within 200 ms per second among requests due in [from, to) seconds. */
  private static double goodput(OpenLoop.Outcomes outcomes, double from, double to) {
    long good = 0;
    for (int i = 0; i < outcomes.size(); i++) {
      double due = outcomes.due[i] / 1e9;
      if (due >= from && due < to && good(outcomes, i)) {
        good++;
      }
    }
    return good / (to - from);
  }

  private static boolean good(OpenLoop.Outcomes outcomes, int i) {
    return outcomes.status[i] == 200 && outcomes.latency[i] <= GOOD_NANOS;
  }

  /** 10% critical requests, the others sheddable, at 3 times the capacity. */
  private Result criticality(String label, Variant variant, Map<String, String> extra)
      throws Exception {
    Map<String, String> settings = new LinkedHashMap<>(extra);
    settings.put("limiter.policy.backend.criticality", "header:X-Criticality");
    settings.put("limiter.http.trusted-proxies", "127.0.0.1/32");
    CapacityBackend backend = new CapacityBackend(CAPACITY);
    try (Running server = start(variant, backend, settings)) {
      OpenLoop.Outcomes outcomes =
          client.run(server.uri, 3 * CAPACITY_PER_SECOND, warmUp + measured, 0.1, second -> {});
      if (criticalityOnly) {
        misses(label, outcomes, (long) (warmUp * 1e9));
      }
      return summarize(label, 3, outcomes, (long) (warmUp * 1e9), measured);
    }
  }

  /** Each critical request that missed, with when it was due: where the misses cluster. */
  private static void misses(String label, OpenLoop.Outcomes outcomes, long skipNanos) {
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.due[i] >= skipNanos && outcomes.critical[i] && !good(outcomes, i)) {
        System.err.printf(
            Locale.ROOT,
            "%s: critical due at %.3f s: status %d, %.1f ms%n",
            label,
            outcomes.due[i] / 1e9,
            outcomes.status[i],
            outcomes.latency[i] / 1e6);
      }
    }
  }

  private static Result summarize(
      String label, double load, OpenLoop.Outcomes outcomes, long skipNanos, double seconds) {
    long good = 0;
    long rejected = 0;
    long failed = 0;
    long counted = 0;
    long sheddableRejected = 0;
    // per criticality: requests, good, rejected, late (200 beyond 200 ms), failed
    long[] critical = new long[5];
    long[] sheddable = new long[5];
    List<Long> admitted = new ArrayList<>();
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.due[i] < skipNanos) {
        continue;
      }
      counted++;
      long[] split = outcomes.critical[i] ? critical : sheddable;
      split[0]++;
      int status = outcomes.status[i];
      if (status == 200) {
        admitted.add(outcomes.latency[i]);
        split[good(outcomes, i) ? 1 : 3]++;
      } else if (status == 429 || status == 503) {
        rejected++;
        split[2]++;
        if (!outcomes.critical[i]) {
          sheddableRejected++;
        }
      } else {
        failed++;
        split[4]++;
      }
      if (good(outcomes, i)) {
        good++;
      }
    }
    long[] sorted = admitted.stream().mapToLong(Long::longValue).sorted().toArray();
    boolean split = critical[0] > 0;
    return new Result(
        label,
        load,
        good / seconds,
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        counted == 0 ? 0 : (double) rejected / counted,
        counted == 0 ? 0 : (double) failed / counted,
        split ? Split.of(critical) : Split.NONE,
        split ? Split.of(sheddable) : Split.NONE,
        !split || rejected == 0 ? Double.NaN : (double) sheddableRejected / rejected);
  }

  /** The {@code q} quantile in milliseconds (nearest rank); NaN with no sample. */
  private static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank))] / 1e6;
  }

  /** A server started for one run. */
  private static final class Running implements AutoCloseable {
    final Server server;
    final URI uri;

    Running(Server server, URI uri) {
      this.server = server;
      this.uri = uri;
    }

    @Override
    public void close() {
      try {
        server.stop();
      } catch (Exception e) {
        throw new IllegalStateException("could not stop the server", e);
      }
    }
  }

  /** Jetty on a free 127.0.0.1 port, the backend at /work behind {@code variant}. */
  private static Running start(Variant variant, CapacityBackend backend, Map<String, String> extra)
      throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(600, 16);
    threads.setName("backend");
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    connector.setAcceptQueueSize(4096);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(new ServletHolder(backend), "/work");
    switch (variant) {
      case NONE -> {}
      case GRADIENT2 ->
          context.addFilter(
              new FilterHolder(new Gradient2Filter()), "/*", EnumSet.of(DispatcherType.REQUEST));
      default -> {
        Map<String, String> settings = limiterSettings(variant);
        settings.putAll(extra);
        context.addServletContainerInitializer(
            (classes, servletContext) -> {
              FilterRegistration.Dynamic registration =
                  servletContext.addFilter("limiter", RateLimitFilter.class);
              settings.forEach(registration::setInitParameter);
              registration.addMappingForUrlPatterns(
                  EnumSet.of(DispatcherType.REQUEST), false, "/*");
            });
      }
    }
    server.setHandler(context);
    server.start();
    return new Running(
        server, URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/work"));
  }

  /** Limiter's filter for {@code variant}: one node-wide concurrency policy on every path. */
  private static Map<String, String> limiterSettings(Variant variant) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("limiter.metrics.enabled", "false");
    settings.put("limiter.policy.backend.algorithm", "concurrency");
    settings.put(
        "limiter.policy.backend.limits",
        switch (variant) {
          case FIXED_RIGHT -> "8";
          case FIXED_LOW -> "4";
          case FIXED_HIGH -> "32";
          default -> "adaptive";
        });
    if (variant != Variant.ADAPTIVE) {
      settings.put("limiter.policy.backend.key", "constant");
    }
    settings.put("limiter.route.all.pattern", "/*");
    settings.put("limiter.route.all.policies", "backend");
    return settings;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
