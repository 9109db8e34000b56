package io.github.limiter.internal.config;

import io.github.limiter.Policy;
import io.github.limiter.spi.ConfigLookup;
import java.util.Collection;
import java.util.List;
import java.util.ServiceLoader;

/**
 * A module's own section of the configuration, {@code limiter.NAME.*}, declared by the module that
 * reads it and found through {@link ServiceLoader}: its table of {@link Setting}s, which the
 * reference documentation shows, and the policies it configures, which decide in the application's
 * one runtime as inbound ones do (live limits, config refresh, readiness). A store's section is its
 * {@link DeclaredStoreFactory}. The core leaves a section's keys to the section: it checks them
 * when it reads them.
 */
public interface SettingsSection {

  /** The section's name: its keys are {@code limiter.NAME.*}. */
  String name();

  /** Its settings, in the order the documentation shows them. */
  List<Setting<?>> settings();

  /**
   * What each setting's name is shown after: {@code limiter.outbound.NAME.} for a section of named
   * policies; empty (the default) for settings named whole, as a store's are.
   */
  default String prefix() {
    return "";
  }

  /** The section's table, as the reference documentation shows it. */
  default DeclaredSettings.Table table() {
    return new DeclaredSettings.Table(prefix(), settings());
  }

  /**
   * The policies that {@code config} configures in this section, read and checked whole; none by
   * default.
   *
   * @throws io.github.limiter.ConfigException naming every bad key of the section and its value
   */
  default Collection<Policy> policies(ConfigLookup config) {
    return List.of();
  }

  /** The sections found with {@code loader} (the application's class loader in a container). */
  static List<SettingsSection> load(ClassLoader loader) {
    return ServiceLoader.load(SettingsSection.class, loader).stream()
        .map(ServiceLoader.Provider::get)
        .toList();
  }
}
