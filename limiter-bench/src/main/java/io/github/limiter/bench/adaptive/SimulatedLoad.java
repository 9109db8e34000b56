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
 *   <li><b>A slow dependency</b>: at twice the capacity, every request takes twice as long for 10
 *       s, with no more queueing; then the backend is as fast as before.
 *   <li><b>A probe cycle at 4×</b>: five minutes of four times the capacity, 10% of it critical,
 *       the others sheddable: what the probes cost, and whether critical requests keep answering
 *       through them.
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

  /** When the dependency slows down, for how long, and how much. */
  static final double SLOW_FROM = 20;

  static final double SLOW_SECONDS = 10;
  static final double SLOWDOWN = 2;

  /** The probe cycle: warm-up, then the longest a baseline goes unmeasured, five minutes. */
  static final double CYCLE_WARM_UP = 20;

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
      double settleSeconds,
      int lowestLimit,
      int highestLimit,
      int probes,
      double late) {}

  /** One protection over the probe cycle at 4×. */
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
    List<Phase> phases = new ArrayList<>();
    for (Protection protection : Protection.values()) {
      phases.addAll(slowDependency(protection));
    }
    List<Cycle> cycles = new ArrayList<>();
    for (Protection protection : Protection.values()) {
      cycles.add(probeCycle(protection));
    }
    String report = markdown(phases, cycles);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, report);
    System.out.println(report);
    System.out.println("written: " + out);
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
        settle(run, from, to, capacity),
        lowest,
        highest,
        probes(run, from, to).size(),
        admitted == 0 ? 0 : (double) late / admitted);
  }

  /** Four times the capacity, 10% critical, over a full probe cycle after a warm-up. */
  static Cycle probeCycle(Protection protection) {
    Clock clock = new Clock();
    double from = CYCLE_WARM_UP;
    double to = from + CYCLE_SECONDS;
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
   * Seconds from {@code from} after which every rolling second until {@code to} has goodput within
   * 10% of {@code capacity}; -1 if none.
   */
  static double settle(Run run, double from, double to, double capacity) {
    double step = 0.25;
    double settled = -1;
    for (double t = from; t + 1 <= to + 1e-9; t += step) {
      boolean within = Math.abs(goodput(run, t, t + 1) - capacity) <= 0.1 * capacity;
      if (within && settled < 0) {
        settled = t - from;
      } else if (!within) {
        settled = -1;
      }
    }
    return settled;
  }

  static String markdown(List<Phase> phases, List<Cycle> cycles) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
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
        String.format(
            Locale.ROOT,
            "### A slow dependency: service time ×%.0f for %.0f s at 2× the capacity%n%n",
            SLOWDOWN,
            SLOW_SECONDS));
    md.append(
        "| protection | phase | capacity/s | goodput/s | of capacity | from 5 s on, of capacity |"
            + " settled within 10% | limit | probes | late |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Phase p : phases) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.0f | %.0f | %.2f | %.2f | %s | %d–%d | %d | %.1f%% |%n",
              p.protection(),
              p.phase(),
              p.capacity(),
              p.goodput(),
              p.goodput() / p.capacity(),
              p.goodputAfterFive() / p.capacity(),
              p.settleSeconds() < 0
                  ? "not within the phase"
                  : String.format(Locale.ROOT, "%.2f s", p.settleSeconds()),
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
        String.format(
            Locale.ROOT,
            "%n### A probe cycle at 4×: %.0f s after %.0f s of warm-up, 10%% critical, the others"
                + " sheddable%n%n",
            CYCLE_SECONDS,
            CYCLE_WARM_UP));
    md.append(
        "| protection | goodput/s | vs Gradient2 | critical within the deadline | critical missed"
            + " (in a probe) | probes | time probing | probe cost |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    for (Cycle c : cycles) {
      md.append(
          String.format(
              Locale.ROOT,
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
        String.format(
            Locale.ROOT,
            "- slow dependency, adaptive: settled in %s (target: within 5 s); goodput from 5 s on /"
                + " the slower capacity %.2f (target: within 10%%)%n",
            slow.settleSeconds() < 0
                ? "never"
                : String.format(Locale.ROOT, "%.2f s", slow.settleSeconds()),
            slow.goodputAfterFive() / slow.capacity()));
    md.append(
        String.format(
            Locale.ROOT,
            "- probe cycle at 4×, adaptive / Netflix Gradient2: %.3f (target: >= 1.0)%n",
            adaptive.goodput() / gradient2.goodput()));
    md.append(
        String.format(
            Locale.ROOT,
            "- critical requests within the deadline at 4×, probes included (adaptive): %.2f%%"
                + " (target: >= 99.5%%)%n",
            100 * adaptive.criticalGood()));
    md.append(
        String.format(
            Locale.ROOT,
            "- what the probes cost over the cycle (adaptive): %.2f%% of the goodput, %d probe(s)%n",
            100 * adaptive.probeCost(),
            adaptive.probes()));
    return md.toString();
  }
}
