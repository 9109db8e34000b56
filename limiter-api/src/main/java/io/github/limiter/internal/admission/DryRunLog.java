package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.RequestView;
import io.github.limiter.internal.log.LogText;
import io.github.limiter.internal.log.RateLimitedLog;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The line an HTTP adapter logs when a policy in dry run would have rejected a request: at most one
 * a minute per policy, so that a busy route cannot flood the log. As an observer it logs each such
 * policy of each outcome.
 */
public final class DryRunLog implements AdmissionObserver {

  private final Logger logger;
  private final Class<?> source;
  private final String method;
  private final Map<String, RateLimitedLog> byPolicy = new ConcurrentHashMap<>();

  /**
   * @param source the adapter's class, and {@code method} the method that logs, as the record shows
   *     them
   */
  public DryRunLog(Logger logger, Class<?> source, String method) {
    this.logger = logger;
    this.source = source;
    this.method = method;
  }

  /** Logs that {@code policy}, in dry run, would have rejected a request with {@code dryRun}. */
  public void log(String policy, Decision dryRun) {
    byPolicy
        .computeIfAbsent(policy, name -> new RateLimitedLog(logger, source, Duration.ofSeconds(60)))
        .log(
            Level.INFO,
            method,
            "Rate limit policy "
                + LogText.quote(policy)
                + " is in dry run and would have rejected a request ("
                + dryRun.outcome()
                + "); it passed");
  }

  @Override
  public void observe(RequestView request, RequestFrame outcome) {
    for (int i = 0; i < outcome.size(); i++) {
      Decision dryRun = outcome.dryRunRejection(i);
      if (dryRun != null) {
        log(outcome.rule(i).name(), dryRun);
      }
    }
  }
}
