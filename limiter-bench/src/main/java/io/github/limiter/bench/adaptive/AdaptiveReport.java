package io.github.limiter.bench.adaptive;

import io.github.limiter.bench.adaptive.AdaptiveLoad.Phase;
import io.github.limiter.bench.adaptive.AdaptiveLoad.Result;
import io.github.limiter.bench.adaptive.AdaptiveLoad.Split;
import io.github.limiter.bench.adaptive.AdaptiveLoad.Variant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The harness's results as Markdown: the tables, then the "Done when" ratios of issue 27. */
final class AdaptiveReport {

  private AdaptiveReport() {}

  static String markdown(
      boolean smoke,
      double warmUp,
      double measured,
      List<Result> steady,
      Map<Variant, List<Phase>> changes,
      List<Result> critical,
      String loadBefore,
      String loadAfter) {
    StringBuilder md = new StringBuilder();
    md.append("# Adaptive concurrency: load harness results")
        .append(smoke ? " (smoke: too short for figures)" : "")
        .append("\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Backend: %d slots at %d ms (%d requests/s), queueing beyond (504 after %d ms waiting)."
                + " Open-loop arrivals, evenly spaced; each run %.1f s of warm-up, then %.1f s"
                + " measured, on a fresh server. Goodput: 200 answers within 200 ms, per second."
                + " Latencies of admitted (200) requests, from when each was due. Load average"
                + " (1/5/15 min) before: %s; after: %s.%n%n",
            AdaptiveLoad.CAPACITY,
            CapacityBackend.SERVICE_MILLIS,
            AdaptiveLoad.CAPACITY_PER_SECOND,
            CapacityBackend.MAX_QUEUE_MILLIS,
            warmUp,
            measured,
            loadBefore,
            loadAfter));
    md.append("## Steady load\n\n");
    md.append(
        "| load | protection | goodput/s | goodput / capacity | p50 ms | p99 ms | rejected |"
            + " failed (504, timeout) |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    for (Result r : steady) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %.1fx | %s | %.0f | %.2f | %.1f | %.1f | %.1f%% | %.1f%% |%n",
              r.load(),
              r.label(),
              r.goodput(),
              r.goodput() / AdaptiveLoad.CAPACITY_PER_SECOND,
              r.p50(),
              r.p99(),
              100 * r.rejected(),
              100 * r.failed()));
    }
    md.append("\n## Capacity change at 3x the first capacity (8 -> 4 -> 16 slots)\n\n");
    md.append(
        "| protection | phase | goodput/s (second half) | of capacity | settled within 10% |\n");
    md.append("|---|---|---|---|---|\n");
    changes.forEach(
        (variant, phases) -> {
          for (Phase p : phases) {
            double capacity = p.capacity() * 1000.0 / CapacityBackend.SERVICE_MILLIS;
            md.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %d slots | %.0f | %.2f | %s |%n",
                    variant.label,
                    p.capacity(),
                    p.goodput(),
                    p.goodput() / capacity,
                    p.settleSeconds() < 0
                        ? "not within the phase"
                        : String.format(Locale.ROOT, "%.2f s", p.settleSeconds())));
          }
        });
    md.append("\n## Criticality: 10% critical, 90% sheddable, at 3x\n\n");
    md.append(
        "| protection | goodput/s | critical within 200 ms | sheddable share of rejections |"
            + " p99 ms | rejected |\n");
    md.append("|---|---|---|---|---|---|\n");
    for (Result r : critical) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.0f | %.2f%% | %.2f%% | %.1f | %.1f%% |%n",
              r.label(),
              r.goodput(),
              100 * r.criticalGood(),
              100 * r.sheddableShareOfRejections(),
              r.p99(),
              100 * r.rejected()));
    }
    md.append(
        "\nWhat each criticality's requests got (shares of that criticality's requests; late: 200"
            + " beyond 200 ms; failed: 504 or no answer):\n\n");
    md.append(
        "| protection | criticality | requests | within 200 ms | rejected | late | failed |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (Result r : critical) {
      split(md, r.label(), "critical", r.critical());
      split(md, r.label(), "sheddable", r.sheddable());
    }
    md.append("\n## Issue 27's targets, from this run\n\n");
    targets(md, steady, changes, critical);
    return md.toString();
  }

  private static void targets(
      StringBuilder md,
      List<Result> steady,
      Map<Variant, List<Phase>> changes,
      List<Result> critical) {
    Result adaptive = find(steady, Variant.ADAPTIVE.label, 3);
    Result gradient = find(steady, Variant.GRADIENT2.label, 3);
    Result bestFixed = null;
    for (Variant fixed :
        new Variant[] {Variant.FIXED_RIGHT, Variant.FIXED_LOW, Variant.FIXED_HIGH}) {
      Result r = find(steady, fixed.label, 3);
      if (r != null && (bestFixed == null || r.goodput() > bestFixed.goodput())) {
        bestFixed = r;
      }
    }
    Result unloaded = find(steady, Variant.NONE.label, 0.5);
    if (adaptive != null && bestFixed != null) {
      line(
          md,
          "goodput at 3x, adaptive / best fixed (" + bestFixed.label() + ")",
          adaptive.goodput() / bestFixed.goodput(),
          ">= 0.9");
    }
    if (adaptive != null && gradient != null) {
      line(
          md,
          "goodput at 3x, adaptive / Netflix Gradient2",
          adaptive.goodput() / gradient.goodput(),
          ">= 1.0");
    }
    if (adaptive != null && unloaded != null) {
      line(
          md,
          "p99 of admitted at 3x, adaptive / unloaded (no limiter, 0.5x)",
          adaptive.p99() / unloaded.p99(),
          "<= 2");
    }
    List<Phase> phases = changes.get(Variant.ADAPTIVE);
    if (phases != null) {
      for (Phase p : phases.subList(1, phases.size())) {
        double capacity = p.capacity() * 1000.0 / CapacityBackend.SERVICE_MILLIS;
        md.append(
            String.format(
                Locale.ROOT,
                "- capacity %d: adaptive settled %s (target: within 5 s); goodput / new capacity"
                    + " %.2f (target: within 10%%)%n",
                p.capacity(),
                p.settleSeconds() < 0
                    ? "not within the phase"
                    : String.format(Locale.ROOT, "in %.2f s", p.settleSeconds()),
                p.goodput() / capacity));
      }
    }
    if (!critical.isEmpty()) {
      Result r = critical.get(0);
      line(md, "critical requests within 200 ms at 3x (adaptive)", r.criticalGood(), ">= 0.99");
      line(
          md,
          "sheddable share of rejections at 3x (adaptive)",
          r.sheddableShareOfRejections(),
          ">= 0.90");
    }
  }

  private static void split(StringBuilder md, String label, String criticality, Split s) {
    md.append(
        String.format(
            Locale.ROOT,
            "| %s | %s | %d | %.2f%% | %.2f%% | %.2f%% | %.2f%% |%n",
            label,
            criticality,
            s.requests(),
            100 * s.good(),
            100 * s.rejected(),
            100 * s.late(),
            100 * s.failed()));
  }

  private static void line(StringBuilder md, String what, double value, String target) {
    md.append(String.format(Locale.ROOT, "- %s: %.2f (target: %s)%n", what, value, target));
  }

  private static Result find(List<Result> results, String label, double load) {
    return results.stream()
        .filter(r -> r.label().equals(label) && r.load() == load)
        .findFirst()
        .orElse(null);
  }
}
