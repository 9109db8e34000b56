package io.github.limiter.bench.adaptive;

import com.netflix.concurrency.limits.Limiter.Listener;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.github.limiter.Limiter;
import io.github.limiter.NanoClock;
import io.github.limiter.RequestView;
import io.github.limiter.internal.admission.AdaptiveGate;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.AdmissionMetrics;
import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.admission.RuleCompiler;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

/**
 * A backend of known capacity in simulated time: {@code slots} requests served at once, the others
 * queued first come first served, each needing a lognormal service time (or a constant one) that a
 * slowdown can stretch while it is served. Requests arrive open-loop, Poisson or evenly spaced,
 * behind a {@link Guard} that runs on the model's clock. Nothing waits or runs on real time, and
 * every draw is seeded: a run's figures are exact and repeatable.
 */
final class SimulatedBackend {

  /** A protection in front of the backend, deciding on the model's clock. */
  interface Guard extends AutoCloseable {
    /** Admits a request arriving now (a ticket to end it with), or refuses it (null). */
    Object admit(boolean critical);

    /** An admitted request ended now. */
    void end(Object ticket);

    /** The limit now. */
    int limit();

    /** Whether the limit is probing for its baseline now. */
    default boolean probing() {
      return false;
    }

    @Override
    default void close() {}
  }

  /** The model's clock, which the guards read. */
  static final class Clock implements NanoClock {
    long now;

    @Override
    public long nanos() {
      return now;
    }
  }

  /**
   * Limiter's admission step with one concurrency policy, {@code backend}, on the model's clock.
   */
  static final class LimiterGuard implements Guard {
    private static final RequestView CALLER = new Caller();

    private final Limiter limiter;
    private final Admission admission;
    private final PolicySet critical;
    private final PolicySet others;
    private final AdaptiveGate gate;
    private final int fixed;

    /**
     * @param settings the policy's settings, {@code limiter.policy.backend.*}
     * @param criticality what the requests that are not critical are
     */
    LimiterGuard(Clock clock, Map<String, String> settings, Criticality criticality) {
      Map<String, String> map = new HashMap<>(settings);
      map.put("limiter.policy.backend.algorithm", "concurrency");
      LimiterConfig config = LimiterConfig.from(ConfigLookup.of(map));
      PolicyConfig policy = config.policy("backend").orElseThrow();
      limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());
      admission =
          new Admission(
              new ClientAddress(config.http()), true, false, (r, o) -> {}, AdmissionMetrics.OFF);
      RuleCompiler compiler = new RuleCompiler(admission, (p, s, n) -> () -> null, clock);
      Rule rule = compiler.compile(policy);
      critical = PolicySet.of(List.of(rule), limiter::bind, Criticality.CRITICAL);
      others = PolicySet.of(List.of(rule), limiter::bind, criticality);
      gate = compiler.gate(policy);
      fixed = (int) policy.policy().limits().get(0).permits();
    }

    @Override
    public Object admit(boolean isCritical) {
      RequestFrame frame = admission.admit(isCritical ? critical : others, CALLER);
      return frame.allowed() ? frame : null;
    }

    @Override
    public void end(Object ticket) {
      ((RequestFrame) ticket).end(200, null);
    }

    @Override
    public int limit() {
      return gate != null ? (int) gate.limit() : fixed;
    }

    @Override
    public boolean probing() {
      return gate != null && gate.probing();
    }

    @Override
    public void close() {
      limiter.close();
    }
  }

  /** Netflix concurrency-limits' Gradient2, set up as {@link Gradient2Filter} sets it up. */
  static final class Gradient2Guard implements Guard {
    private final SimpleLimiter<Void> limiter;

    Gradient2Guard(Clock clock) {
      limiter =
          SimpleLimiter.newBuilder()
              .nanoClock(clock::nanos)
              .limit(
                  Gradient2Limit.newBuilder()
                      .initialLimit(20)
                      .minLimit(1)
                      .maxConcurrency(1000)
                      .build())
              .build();
    }

    @Override
    public Object admit(boolean critical) {
      return limiter.acquire(null).orElse(null);
    }

    @Override
    public void end(Object ticket) {
      ((Listener) ticket).onSuccess();
    }

    @Override
    public int limit() {
      return limiter.getLimit();
    }
  }

  /** What one run's requests got, by arrival. */
  static final class Run {
    static final byte REFUSED = 0;
    static final byte GOOD = 1;
    static final byte LATE = 2;

    /** The limit and the probes are watched in bins of this many seconds. */
    static final double BIN = 0.1;

    final double[] arrival; // seconds
    final byte[] outcome;
    final boolean[] critical;
    final double[] latency; // seconds, admitted requests only
    final int[] lowestLimit; // per bin
    final int[] highestLimit; // per bin
    final boolean[] probing; // per bin: a probe ran during it

    Run(int requests, double seconds) {
      arrival = new double[requests];
      outcome = new byte[requests];
      critical = new boolean[requests];
      latency = new double[requests];
      int bins = (int) Math.ceil(seconds / BIN) + 1;
      lowestLimit = new int[bins];
      highestLimit = new int[bins];
      probing = new boolean[bins];
      Arrays.fill(lowestLimit, Integer.MAX_VALUE);
    }

    int size() {
      return arrival.length;
    }
  }

  private record Pending(long end, Object ticket) {}

  final int slots;
  final double medianMillis;
  final double sigma; // of the service time's log; 0 for a constant service time
  final long deadlineNanos;

  /**
   * @param sigma the standard deviation of the service time's logarithm; 0: every request takes
   *     {@code medianMillis}
   */
  SimulatedBackend(int slots, double medianMillis, double sigma, long deadlineMillis) {
    this.slots = slots;
    this.medianMillis = medianMillis;
    this.sigma = sigma;
    this.deadlineNanos = deadlineMillis * 1_000_000L;
  }

  /** Requests served a second with every slot busy, at {@code slowdown} times the service time. */
  double capacity(double slowdown) {
    double meanSeconds = medianMillis / 1e3 * Math.exp(sigma * sigma / 2);
    return slots / (meanSeconds * slowdown);
  }

  /**
   * Offers {@code perSecond} requests a second for {@code seconds} behind {@code guard}, Poisson or
   * evenly spaced, a share {@code criticalShare} of them critical; a request served at second
   * {@code t} takes {@code slowdown(t)} times its service time.
   */
  Run run(
      Guard guard,
      Clock clock,
      double perSecond,
      double seconds,
      boolean poisson,
      double criticalShare,
      DoubleUnaryOperator slowdown,
      long seed) {
    SplittableRandom arrivals = new SplittableRandom(seed);
    SplittableRandom services = new SplittableRandom(seed + 1);
    SplittableRandom kinds = new SplittableRandom(seed + 2);
    int n = (int) Math.round(perSecond * seconds);
    Run run = new Run(n, seconds);
    PriorityQueue<Pending> running = new PriorityQueue<>((a, b) -> Long.compare(a.end, b.end));
    PriorityQueue<Long> slotsFree = new PriorityQueue<>();
    for (int i = 0; i < slots; i++) {
      slotsFree.add(0L);
    }
    double t = 0;
    for (int i = 0; i < n; i++) {
      t += poisson ? -Math.log(1 - arrivals.nextDouble()) / perSecond : 1 / perSecond;
      long now = (long) (t * 1e9);
      // every arrival draws its kind and its service time, admitted or not: each guard gets the
      // same requests
      boolean critical = kinds.nextDouble() < criticalShare;
      double demand = medianMillis * Math.exp(sigma * services.nextGaussian());
      while (!running.isEmpty() && running.peek().end <= now) {
        Pending done = running.poll();
        clock.now = done.end;
        guard.end(done.ticket);
      }
      clock.now = now;
      run.arrival[i] = t;
      run.critical[i] = critical;
      Object ticket = guard.admit(critical);
      watch(run, guard, t);
      if (ticket == null) {
        run.outcome[i] = Run.REFUSED;
        continue;
      }
      long start = Math.max(now, slotsFree.poll());
      long end = start + (long) (demand * 1e6 * slowdown.applyAsDouble(start / 1e9));
      slotsFree.add(end);
      running.add(new Pending(end, ticket));
      run.latency[i] = (end - now) / 1e9;
      run.outcome[i] = end - now <= deadlineNanos ? Run.GOOD : Run.LATE;
    }
    guard.close();
    return run;
  }

  private static void watch(Run run, Guard guard, double t) {
    int bin = (int) (t / Run.BIN);
    if (bin >= run.probing.length) {
      return;
    }
    int limit = guard.limit();
    run.lowestLimit[bin] = Math.min(run.lowestLimit[bin], limit);
    run.highestLimit[bin] = Math.max(run.highestLimit[bin], limit);
    run.probing[bin] |= guard.probing();
  }

  /** A caller with no headers, from 127.0.0.1. */
  private static final class Caller implements RequestView {
    @Override
    public String remoteAddress() {
      return "127.0.0.1";
    }

    @Override
    public String header(String name) {
      return null;
    }

    @Override
    public Enumeration<String> headers(String name) {
      return Collections.emptyEnumeration();
    }

    @Override
    public String principal() {
      return null;
    }

    @Override
    public <T> T unwrap(Class<T> type) {
      return null;
    }
  }
}
