package io.github.limiter.it.conformance;

import io.github.limiter.it.harness.Settings;
import java.util.Map;

/**
 * A runtime that the conformance suite runs on: it starts server processes that serve the
 * conformance application (see {@link ConformanceApp}) on free loopback ports, with the given
 * settings as system properties, which override the application's own {@code
 * META-INF/microprofile-config.properties}. The suite picks one by the system property {@code
 * it.conformance.runtime} (each Maven profile sets it); a new runtime is one more class here.
 */
public interface ConformanceRuntime {

  /** {@code payara}, {@code wildfly}, {@code openliberty} or {@code quarkus}. */
  String name();

  /**
   * Starts a node named {@code name} (unique within the runtime's run) with {@code settings} as
   * system properties, and returns at once: see {@link ServerNode#awaitReady} and {@link
   * ServerNode#awaitSettled}.
   */
  ServerNode start(String name, Map<String, String> settings);

  /** The runtime that {@code it.conformance.runtime} names. */
  static ConformanceRuntime selected() {
    String name = Settings.required("it.conformance.runtime");
    return switch (name) {
      case "payara" -> new PayaraRuntime();
      case "wildfly" -> new WildFlyRuntime();
      case "openliberty" -> new OpenLibertyRuntime();
      case "quarkus" -> new QuarkusRuntime();
      default ->
          throw new IllegalStateException(
              "it.conformance.runtime: expected payara, wildfly, openliberty or quarkus, was '"
                  + name
                  + "'");
    };
  }
}
