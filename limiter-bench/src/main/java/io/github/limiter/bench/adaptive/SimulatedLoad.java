package io.github.limiter.bench.adaptive;

import io.github.limiter.bench.adaptive.SimulatedBackend.Clock;
import io.github.limiter.bench.adaptive.SimulatedBackend.Gradient2Guard;
import io.github.limiter.bench.adaptive.SimulatedBackend.Guard;
import io.github.limiter.bench.adaptive.SimulatedBackend.LimiterGuard;
import io.github.limiter.bench.adaptive.SimulatedBackend.Run;
import io.github.limiter.internal.config.Criticality;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The adaptive harness's scenarios in simulated time (not a test): a {@link SimulatedBackend} of 16
 * slots with lognormal service times (median 40 ms, σ 0.5 of the logarithm: 353 requests a second),
 * Poisson arrivals and a 300 ms deadline, behind Limiter's adaptive limit, a fixed limit of 16 and
 * Netflix Gradient2, each on the model's clock.
 *
 * <ul>
 *   <li><b>Steady load</b>, from half the capacity to four times it.
 *   <li><b>A slow dependency</b>: at twice the capacity, every request takes twice as long for 10
 *       s, with no more queueing; then the backend is as fast as before.
 *   <li><b>A probe cycle at 4×</b>: five minutes of four times the capacity from a cold start, 10%
 *       of it critical, the others sheddable: what the probes cost, and whether critical requests
 *       keep answering through them.
 * </ul>
 *
 * <p>Nothing runs on real time and every draw is seeded, so the figures are exact and the same on
 * every run and every machine.
 *
 * <pre>
 *   limiter-bench/run-adaptive.sh --simulated    # a few seconds; writes target/adaptive-simulated.md
 * </pre>
 */
public final class SimulatedLoad {

  static final SimulatedBackend BACKEND = new SimulatedBackend(16, 40, 0.5, 300);
  static final long SEED = 35;

  /** The steady loads, as multiples of the capacity: each run 60 s, the first 10 s not counted. */
  static final double[] STEADY_LOADS = {0.5, 1, 1.5, 2, 3, 4};

  static final double STEADY_SECONDS = 60;
  static final double STEADY_WARM_UP = 10;

  /** When the dependency slows down, for how long, and how much. */
  static final double SLOW_FROM = 20;

  static final double SLOW_SECONDS = 10;
  static final double SLOWDOWN = 2;

  /** How many seconds after a change the report shows one by one. */
  static final int FIRST_SECONDS = 6;

  /**
   * The probe cycle: from a cold start (its probe included) for the longest a baseline goes
   * unconfirmed before a probe measures it again, five minutes.
   */
  static final double CYCLE_SECONDS = 300;

  /** A protection in front of the backend. */
  enum Protection {
    FIXED("Limiter fixed 16"),
    GRADIENT2("Netflix Gradient2"),
    ADAPTIVE("Limiter adaptive");

    final String label;

    Protection(String label) {
      this.label = label;
    }

    /** Its guard; with {@code criticality}, the requests that are not critical are sheddable. */
    Guard guard(Clock clock, boolean criticality) {
      Criticality others = criticality ? Criticality.SHEDDABLE : Criticality.DEFAULT;
      return switch (this) {
        case FIXED ->
            new LimiterGuard(
                clock,
                Map.of(
                    "limiter.policy.backend.limits",
                    "16",
                    "limiter.policy.backend.key",
                    "constant"),
                others);
        case GRADIENT2 -> new Gradient2Guard(clock);
        case ADAPTIVE ->
            new LimiterGuard(clock, Map.of("limiter.policy.backend.limits", "adaptive"), others);
      };
    }
  }

  /** One phase of the slow-dependency run, for one protection. */
  record Phase(
      String protection,
      String phase,
      double capacity,
      double goodput,
      double goodputAfterFive,
      double[] firstSeconds,
      int lowestLimit,
      int highestLimit,
      int probes,
      double late) {}

  /** One protection over the probe cycle at 4×. */
  /** One protection at a steady load. */
  record Steady(
      String protection, double load, double goodput, double p99, double refused, double late) {}

  record Cycle(
      String protection,
      double goodput,
      double criticalGood,
      long criticalRequests,
      long criticalMissed,
      long criticalMissedInProbes,
      int probes,
      double secondsProbing,
      double probeCost) {}

  private SimulatedLoad() {}

  public static void main(String[] args) throws Exception {
    Path out =
        Path.of(
            args.length > 0 && !args[args.length - 1].startsWith("--")
                ? args[args.length - 1]
                : "target/adaptive-simulated.md");
    List<Steady> steady = new ArrayList<>();
    for (double load : STEADY_LOADS) {
      for (Protection protection : Protection.values()) {
        steady.add(steady(protection, load));
      }
    }
    List<Phase> phases = new ArrayList<>();
    for (Protection protection : Protection.values()) {
      phases.addAll(slowDependency(protection));
    }
    List<Cycle> cycles = new ArrayList<>();
    for (Protection protection : Protection.values()) {
      cycles.add(probeCycle(protection));
    }
    String report = markdown(steady, phases, cycles);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, report);
    System.out.println(report);
    System.out.println("written: " + out);
  }

  /** {@code load} times the capacity, steady. */
  static Steady steady(Protection protection, double load) {
    Clock clock = new Clock();
    Run run =
        BACKEND.run(
            protection.guard(clock, false),
            clock,
            load * BACKEND.capacity(1),
            STEADY_SECONDS,
            true,
            0,
            t -> 1,
            SEED);
    List<Double> admitted = new ArrayList<>();
    long counted = 0;
    long refused = 0;
    long late = 0;
    for (int i = 0; i < run.size(); i++) {
      if (run.arrival[i] < STEADY_WARM_UP) {
        continue;
      }
      counted++;
      refused += run.outcome[i] == Run.REFUSED ? 1 : 0;
      late += run.outcome[i] == Run.LATE ? 1 : 0;
      if (run.outcome[i] != Run.REFUSED) {
        admitted.add(run.latency[i]);
      }
    }
    admitted.sort(null);
    double p99 =
        admitted.isEmpty()
            ? Double.NaN
            : admitted.get(Math.max(0, (int) Math.ceil(0.99 * admitted.size()) - 1));
    return new Steady(
        protection.label,
        load,
        goodput(run, STEADY_WARM_UP, STEADY_SECONDS),
        p99 * 1e3,
        (double) refused / counted,
        (double) late / counted);
  }

  /** Twice the capacity; the service time doubles for 10 s from second 20. */
  static List<Phase> slowDependency(Protection protection) {
    Clock clock = new Clock();
    double slowTo = SLOW_FROM + SLOW_SECONDS;
    double end = slowTo + SLOW_SECONDS;
    Run run =
        BACKEND.run(
            protection.guard(clock, false),
            clock,
            2 * BACKEND.capacity(1),
            end,
            true,
            0,
            t -> t >= SLOW_FROM && t < slowTo ? SLOWDOWN : 1,
            SEED);
    return List.of(
        phase(protection, "before", run, SLOW_FROM - SLOW_SECONDS, SLOW_FROM, BACKEND.capacity(1)),
        phase(protection, "service ×2", run, SLOW_FROM, slowTo, BACKEND.capacity(SLOWDOWN)),
        phase(protection, "after", run, slowTo, end, BACKEND.capacity(1)));
  }

  private static Phase phase(
      Protection protection, String name, Run run, double from, double to, double capacity) {
    int lowest = Integer.MAX_VALUE;
    int highest = 0;
    for (int bin = (int) (from / Run.BIN); bin < (int) (to / Run.BIN); bin++) {
      if (!run.probing[bin] && run.highestLimit[bin] > 0) {
        lowest = Math.min(lowest, run.lowestLimit[bin]);
        highest = Math.max(highest, run.highestLimit[bin]);
      }
    }
    long admitted = 0;
    long late = 0;
    for (int i = 0; i < run.size(); i++) {
      if (run.arrival[i] >= from && run.arrival[i] < to && run.outcome[i] != Run.REFUSED) {
        admitted++;
        late += run.outcome[i] == Run.LATE ? 1 : 0;
      }
    }
    return new Phase(
        protection.label,
        name,
        capacity,
        goodput(run, from, to),
        goodput(run, from + 5, to),
        firstSeconds(run, from, capacity),
        lowest,
        highest,
        probes(run, from, to).size(),
        admitted == 0 ? 0 : (double) late / admitted);
  }

  /** Four times the capacity, 10% critical, over a full probe cycle from a cold start. */
  static Cycle probeCycle(Protection protection) {
    Clock clock = new Clock();
    double from = 0;
    double to = CYCLE_SECONDS;
    Run run =
        BACKEND.run(
            protection.guard(clock, true),
            clock,
            4 * BACKEND.capacity(1),
            to,
            true,
            0.1,
            t -> 1,
            SEED);
    List<double[]> probes = probes(run, from, to);
    long critical = 0;
    long missed = 0;
    long missedInProbes = 0;
    for (int i = 0; i < run.size(); i++) {
      if (run.critical[i] && run.arrival[i] >= from) {
        critical++;
        if (run.outcome[i] != Run.GOOD) {
          missed++;
          missedInProbes += within(probes, run.arrival[i], 0) ? 1 : 0;
        }
      }
    }
    double probing = probes.stream().mapToDouble(p -> p[1] - p[0]).sum();
    return new Cycle(
        protection.label,
        goodput(run, from, to),
        critical == 0 ? Double.NaN : 1 - (double) missed / critical,
        critical,
        missed,
        missedInProbes,
        probes.size(),
        probing,
        probeCost(run, from, to, probes));
  }

  /**
   * What the probes cost, as a share of the goodput from {@code from} to {@code to}: in each second
   * that a probe touched (and the second after it, while the queue fills again), how much less was
   * served well than in the average second it did not touch.
   */
  private static double probeCost(Run run, double from, double to, List<double[]> probes) {
    double untouched = 0;
    int untouchedSeconds = 0;
    List<Double> touched = new ArrayList<>();
    for (double second = from; second + 1 <= to; second++) {
      double goodput = goodput(run, second, second + 1);
      if (within(probes, second, 1) || within(probes, second + 1, 1)) {
        touched.add(goodput);
      } else {
        untouched += goodput;
        untouchedSeconds++;
      }
    }
    if (touched.isEmpty() || untouchedSeconds == 0) {
      return 0;
    }
    double mean = untouched / untouchedSeconds;
    double lost = touched.stream().mapToDouble(g -> mean - g).sum();
    return lost / (goodput(run, from, to) * (to - from));
  }

  /** Whether {@code t} falls in a probe, or within {@code after} seconds of its end. */
  private static boolean within(List<double[]> probes, double t, double after) {
    for (double[] probe : probes) {
      if (t >= probe[0] && t < probe[1] + after) {
        return true;
      }
    }
    return false;
  }

  /** The probes that ran from {@code from} to {@code to}: {start, end} in seconds, to a bin. */
  static List<double[]> probes(Run run, double from, double to) {
    List<double[]> probes = new ArrayList<>();
    int last = Math.min(run.probing.length, (int) Math.ceil(to / Run.BIN));
    for (int bin = (int) (from / Run.BIN); bin < last; bin++) {
      if (run.probing[bin]) {
        int start = bin;
        while (bin + 1 < last && run.probing[bin + 1]) {
          bin++;
        }
        probes.add(new double[] {start * Run.BIN, (bin + 1) * Run.BIN});
      }
    }
    return probes;
  }

  /** Requests answered within the deadline per second, among those arriving from {@code from}. */
  static double goodput(Run run, double from, double to) {
    long good = 0;
    for (int i = 0; i < run.size(); i++) {
      if (run.arrival[i] >= from && run.arrival[i] < to && run.outcome[i] == Run.GOOD) {
        good++;
      }
    }
    return good / (to - from);
  }

  /**
   * The goodput of each of the first seconds from {@code from}, as a share of {@code capacity}: how
   * soon the protection follows a change. One second holds a few hundred requests, so a second's
   * share varies by several percent around its mean.
   */
  static double[] firstSeconds(Run run, double from, double capacity) {
    double[] shares = new double[FIRST_SECONDS];
    for (int second = 0; second < shares.length; second++) {
      shares[second] = goodput(run, from + second, from + second + 1) / capacity;
    }
    return shares;
  }

  private static String format(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  static String markdown(List<Steady> steady, List<Phase> phases, List<Cycle> cycles) {
    StringBuilder md = new StringBuilder();
    md.append(
        format(
            "Simulated time (`SimulatedLoad`, seed %d): exact and repeatable. Backend: %d slots,"
                + " lognormal service times (median %.0f ms, σ %.1f of the logarithm: %.0f requests/s),"
                + " first come first served; Poisson arrivals. Goodput: answers within %d ms, per"
                + " second.%n%n",
            SEED,
            BACKEND.slots,
            BACKEND.medianMillis,
            BACKEND.sigma,
            BACKEND.capacity(1),
            BACKEND.deadlineNanos / 1_000_000));
    md.append(
        format(
            "### Steady load: %.0f s each, the first %.0f s not counted%n%n",
            STEADY_SECONDS, STEADY_WARM_UP));
    md.append(
        "| load | protection | goodput/s | of capacity | p99 of admitted, ms | refused | late |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (Steady each : steady) {
      md.append(
          format(
              "| %.1fx | %s | %.0f | %.2f | %.0f | %.1f%% | %.1f%% |%n",
              each.load(),
              each.protection(),
              each.goodput(),
              each.goodput() / BACKEND.capacity(1),
              each.p99(),
              100 * each.refused(),
              100 * each.late()));
    }
    md.append(
        format(
            "%n### A slow dependency: service time ×%.0f for %.0f s at 2× the capacity%n%n",
            SLOWDOWN, SLOW_SECONDS));
    md.append(
        "| protection | phase | capacity/s | goodput/s | of capacity | of capacity, from 5 s on |"
            + " of capacity, second by second from the change | limit | probes | late |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Phase p : phases) {
      StringBuilder seconds = new StringBuilder();
      for (double share : p.firstSeconds()) {
        seconds.append(seconds.length() == 0 ? "" : " ").append(format("%.2f", share));
      }
      md.append(
          format(
              "| %s | %s | %.0f | %.0f | %.2f | %.2f | %s | %d–%d | %d | %.1f%% |%n",
              p.protection(),
              p.phase(),
              p.capacity(),
              p.goodput(),
              p.goodput() / p.capacity(),
              p.goodputAfterFive() / p.capacity(),
              seconds,
              p.lowestLimit(),
              p.highestLimit(),
              p.probes(),
              100 * p.late()));
    }
    Cycle gradient2 =
        cycles.stream()
            .filter(c -> c.protection().equals(Protection.GRADIENT2.label))
            .findFirst()
            .orElseThrow();
    md.append(
        format(
            "%n### A probe cycle at 4×: %.0f s from a cold start, 10%% critical, the others"
                + " sheddable%n%n",
            CYCLE_SECONDS));
    md.append(
        "| protection | goodput/s | vs Gradient2 | critical within the deadline | critical missed"
            + " (in a probe) | probes | time probing | probe cost |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    for (Cycle c : cycles) {
      md.append(
          format(
              "| %s | %.1f | %.3f | %.2f%% of %d | %d (%d) | %d | %.1f s | %.2f%% |%n",
              c.protection(),
              c.goodput(),
              c.goodput() / gradient2.goodput(),
              100 * c.criticalGood(),
              c.criticalRequests(),
              c.criticalMissed(),
              c.criticalMissedInProbes(),
              c.probes(),
              c.secondsProbing(),
              100 * c.probeCost()));
    }
    Phase slow =
        phases.stream()
            .filter(p -> p.protection().equals(Protection.ADAPTIVE.label))
            .filter(p -> p.phase().startsWith("service"))
            .findFirst()
            .orElseThrow();
    Cycle adaptive =
        cycles.stream()
            .filter(c -> c.protection().equals(Protection.ADAPTIVE.label))
            .findFirst()
            .orElseThrow();
    md.append("\n### Issue 35's targets, from this run\n\n");
    md.append(
        format(
            "- slow dependency, adaptive: goodput from 5 s after the change to its end / the slower"
                + " backend's capacity: %.2f (target: within 10%%)%n",
            slow.goodputAfterFive() / slow.capacity()));
    md.append(
        format(
            "- probe cycle at 4×, adaptive / Netflix Gradient2: %.3f (target: >= 1.0)%n",
            adaptive.goodput() / gradient2.goodput()));
    md.append(
        format(
            "- critical requests within the deadline at 4×, probes included (adaptive): %.2f%%"
                + " (target: >= 99.5%%)%n",
            100 * adaptive.criticalGood()));
    md.append(
        format(
            "- what the probes cost over the cycle (adaptive): %.2f%% of the goodput, %d probe(s)%n",
            100 * adaptive.probeCost(), adaptive.probes()));
    return md.toString();
  }
}
