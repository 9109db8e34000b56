package io.github.limiter.internal.live;

import io.github.limiter.ConfigException;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.log.LogText;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code limiter.config.refresh}: re-reads the configuration on a period and changes the live
 * limits of every policy whose configured limits changed since the last reading. The whole
 * configuration is validated as at deployment: a bad value anywhere is refused with the
 * deployment's message, and every limit stays. Only limits change this way; a policy's algorithm,
 * key or routes change with a redeploy. A limit that an operator changed stays until the configured
 * value itself changes.
 */
public final class ConfigRefresh implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(ConfigRefresh.class.getName());

  private final PolicyVersions versions;
  private final Supplier<Map<String, Policy>> reread;

  /** The configured limits as last read, by policy (plans' policies included). */
  private final Map<String, Policy> configured = new HashMap<>();

  private ScheduledExecutorService scheduler;

  /**
   * @param deployed the configuration the application deployed with
   * @param reread reads and validates the configuration again, throwing {@link ConfigException}
   */
  public ConfigRefresh(
      PolicyVersions versions, LimiterConfig deployed, Supplier<LimiterConfig> reread) {
    this(versions, policies(deployed), () -> policies(reread.get()));
  }

  /**
   * A refresh of the policies that {@code reread} reads (inbound and outbound alike), by name.
   *
   * @param deployed the configured policies the application deployed with
   * @param reread reads and validates the configuration again, throwing {@link ConfigException}
   */
  public ConfigRefresh(
      PolicyVersions versions, Map<String, Policy> deployed, Supplier<Map<String, Policy>> reread) {
    this.versions = versions;
    this.reread = reread;
    this.configured.putAll(deployed);
  }

  /** A refresh that runs every {@code period} on a daemon thread of its own until closed. */
  public static ConfigRefresh start(
      PolicyVersions versions,
      Map<String, Policy> deployed,
      Supplier<Map<String, Policy>> reread,
      Duration period) {
    ConfigRefresh refresh = new ConfigRefresh(versions, deployed, reread);
    refresh.scheduler = Periodic.every(period, "limiter-config-refresh", refresh::runQuietly);
    return refresh;
  }

  /**
   * Reads the configuration once and applies the limits that changed in it.
   *
   * @return the number of policies whose limits changed
   */
  public synchronized int run() {
    Map<String, Policy> read;
    try {
      read = reread.get();
    } catch (ConfigException e) {
      LOG.log(
          Level.WARNING,
          "limiter.config.refresh: the configuration is refused, every limit stays: {0}",
          LogText.escape(e.getMessage()));
      return 0;
    }
    int changed = 0;
    for (Map.Entry<String, Policy> entry : read.entrySet()) {
      String name = entry.getKey();
      Policy now = entry.getValue();
      Policy before = configured.get(name);
      if (before == null
          || before.limits().equals(now.limits())
          || versions.version(name).isEmpty()) {
        continue;
      }
      Policy running = versions.version(name).get().policy();
      if (running.limits().equals(now.limits())) {
        configured.put(name, now); // another node of a shared store applied it first
        continue;
      }
      if (running.algorithm() != now.algorithm()) {
        LOG.log(
            Level.WARNING,
            "limiter.config.refresh: policy {0} changes its algorithm from {1} to {2}, which"
                + " needs a redeploy; its limits stay",
            new Object[] {LogText.quote(name), running.algorithm(), now.algorithm()});
        continue;
      }
      try {
        PolicyVersion version = versions.change(name, PolicyVersion.text(now));
        configured.put(name, now);
        changed++;
        LOG.log(
            Level.INFO,
            "limiter.config.refresh: policy {0} is version {1}: {2}",
            new Object[] {LogText.quote(name), version.number(), PolicyVersion.text(now)});
      } catch (RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "limiter.config.refresh: policy {0} keeps its limits: {1}",
            new Object[] {LogText.quote(name), LogText.escape(e.getMessage())});
      }
    }
    return changed;
  }

  private void runQuietly() {
    try {
      run();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "limiter.config.refresh failed", e);
    }
  }

  /** The policies of {@code config} by name, plans' policies included. */
  public static Map<String, Policy> policies(LimiterConfig config) {
    Map<String, Policy> policies = new HashMap<>();
    for (PolicyConfig policy : config.policies().values()) {
      policies.put(policy.name(), policy.policy());
      for (Policy plan : policy.plans().byName().values()) {
        policies.put(plan.name(), plan);
      }
    }
    return policies;
  }

  @Override
  public void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }
}
