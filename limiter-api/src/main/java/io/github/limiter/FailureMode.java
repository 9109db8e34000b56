package io.github.limiter;

import io.github.limiter.internal.names.ConfigNames;

/** What a policy does when its store cannot decide, e.g. during a Redis outage. */
public enum FailureMode {
  /** Admit, and mark the decision unverified. */
  FAIL_OPEN("fail-open"),
  /** Reject with {@link Decision.Outcome#UNAVAILABLE}, which HTTP adapters map to 503. */
  FAIL_CLOSED("fail-closed"),
  /** Decide in this JVM's memory instead, with the limits divided by the configured node count. */
  LOCAL("local");

  private final String configName;

  FailureMode(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }

  /** Parses {@code fail-open}, {@code fail-closed} or {@code local}. */
  public static FailureMode fromConfigName(String text) {
    return ConfigNames.parse(FailureMode.class, FailureMode::configName, text);
  }

  @Override
  public String toString() {
    return configName;
  }
}
