package io.github.limiter.internal.log;

import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.Route;
import io.github.limiter.internal.metrics.Recorder;
import java.util.Collection;
import java.util.List;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The two lines every adapter logs when it starts, written here once: what it read, or why it
 * cannot start. A server that keeps running without the application (Payara Micro) shows only its
 * log, so the failure is one SEVERE line with a fixed prefix, before any stack trace the server
 * adds.
 */
public final class StartLog {

  /** What the failure line starts with, for a person or a script to look for. */
  public static final String FAILED = "LIMITER CONFIGURATION FAILED:";

  private StartLog() {}

  /**
   * {@code LIMITER CONFIGURATION FAILED: 2 problems in RateLimitFilter 'limiter': (1) ...; (2)
   * ...}, logged SEVERE on {@code log} without a stack trace.
   *
   * @param adapter which adapter could not start, such as {@code RateLimitFilter 'limiter'}
   * @param problems each problem, naming the key and the value
   * @return the line, for the exception that fails the deployment
   */
  public static String failed(Logger log, String adapter, Collection<String> problems) {
    StringBuilder line =
        new StringBuilder(FAILED)
            .append(' ')
            .append(count(problems.size(), "problem", "problems"))
            .append("in ")
            .append(adapter)
            .append(':');
    int n = 0;
    for (String problem : problems) {
      line.append(n == 0 ? " (" : "; (").append(++n).append(") ").append(problem);
    }
    String text = line.toString();
    log.severe(text);
    return text;
  }

  /**
   * Logs at INFO what {@code adapter} read: the policies (each key source, and whether a missing
   * key falls back to the client address), the routes, the {@code @Limited} sites, the store and
   * the metrics backend.
   *
   * @param sites the {@code @Limited} methods and their policies; null for an adapter without
   */
  public static void started(
      Logger log,
      String adapter,
      LimiterConfig config,
      List<String> sites,
      String store,
      Recorder metrics) {
    StringBuilder line = new StringBuilder("Limiter started for ").append(adapter).append(": ");
    line.append(count(config.policies().size(), "policy", "policies"))
        .append(list(config.policies().values().stream().map(StartLog::policy).toList()));
    if (sites == null) {
      line.append(", ")
          .append(count(config.routes().size(), "route", "routes"))
          .append(list(config.routes().stream().map(StartLog::route).toList()));
    } else {
      line.append(", ")
          .append(count(sites.size(), "@Limited site", "@Limited sites"))
          .append(list(sites));
    }
    line.append(", store ").append(store);
    line.append(", metrics ").append(metrics == Recorder.NOOP ? "none" : metrics.toString());
    log.info(line.toString());
  }

  private static String policy(PolicyConfig policy) {
    StringBuilder text =
        new StringBuilder(policy.name())
            .append(": ")
            .append(policy.policy().algorithm())
            .append(' ')
            .append(
                policy.policy().limits().stream()
                    .map(Object::toString)
                    .collect(Collectors.joining(" and ")));
    if (policy.dryRun()) {
      text.append(" dry-run");
    }
    if (!policy.plans().byName().isEmpty()) {
      text.append(" plans ").append(policy.plans().byName().keySet());
    }
    text.append(" by key ").append(policy.key());
    KeySource.Kind kind = policy.key().kind();
    if (kind != KeySource.Kind.REMOTE_ADDRESS && kind != KeySource.Kind.CONSTANT) {
      // on-missing-key's default surprises: a request without the key is limited by its address.
      text.append(" (if missing: ").append(policy.onMissingKey().configName()).append(')');
    }
    return text.toString();
  }

  private static String route(Route route) {
    return route.name()
        + ": "
        + (route.methods().isEmpty() ? "" : String.join(",", route.methods()) + " ")
        + route.pattern()
        + " -> "
        + String.join(", ", route.policies());
  }

  private static String count(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many) + " ";
  }

  private static String list(List<String> items) {
    return "[" + String.join("; ", items) + "]";
  }
}
