package io.github.limiter.internal.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The core's tables of settings, as their declarations group them: what the reference documentation
 * shows, one table per section of docs/configuration.md (the Markdown is made outside the shipped
 * jar, by limiter-tck's {@code ReferenceTable}). Another module's table, a store's included, is its
 * {@link SettingsSection#table()}.
 */
public final class DeclaredSettings {

  /**
   * One table of settings.
   *
   * @param prefix what each key is shown after: {@code limiter.policy.NAME.} for a policy's, empty
   *     for keys named whole
   * @param settings the settings, in the order shown
   */
  public record Table(String prefix, List<Setting<?>> settings) {
    public Table {
      settings = List.copyOf(settings);
    }
  }

  private DeclaredSettings() {}

  /**
   * The top-level keys: {@code limiter.store}, {@code limiter.policies}, {@code limiter.routes}.
   */
  public static Table general() {
    return new Table("", CoreSettings.TOP);
  }

  /** A policy's keys, {@code limiter.policy.NAME.*}. */
  public static Table policies() {
    return new Table(LimiterConfig.POLICY_PREFIX + "NAME.", PolicySettings.TABLE);
  }

  /** A route's keys, {@code limiter.route.NAME.*}. */
  public static Table routes() {
    return new Table(LimiterConfig.ROUTE_PREFIX + "NAME.", CoreSettings.ROUTE);
  }

  /** The {@code limiter.http.*} keys. */
  public static Table http() {
    return new Table("", CoreSettings.HTTP);
  }

  /** The {@code limiter.events.*} and {@code limiter.metrics.*} keys, in one table. */
  public static Table eventsAndMetrics() {
    List<Setting<?>> settings = new ArrayList<>(CoreSettings.EVENTS);
    settings.addAll(CoreSettings.METRICS);
    return new Table("", settings);
  }

  /** The {@code limiter.top-keys.*} keys. */
  public static Table topKeys() {
    return new Table("", CoreSettings.TOP_KEYS);
  }

  /** The keys of live limits, {@code limiter.config.*} and {@code limiter.admin.*}. */
  public static Table live() {
    List<Setting<?>> settings = new ArrayList<>(CoreSettings.CONFIG);
    settings.addAll(CoreSettings.ADMIN);
    return new Table("", settings);
  }

  /** A module's section, a store's included. */
  public static Table of(SettingsSection section) {
    return section.table();
  }
}
