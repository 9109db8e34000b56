package io.github.limiter.it.harness;

/** The system properties the pom hands to the tests (failsafe systemPropertyVariables). */
public final class Settings {

  private Settings() {}

  /** The value of system property {@code key}, which the pom must set. */
  public static String required(String key) {
    String value = System.getProperty(key);
    if (value == null || value.isBlank() || value.startsWith("${")) {
      throw new IllegalStateException(
          key
              + ": system property not set, was '"
              + value
              + "'; run the tests through Maven (./mvnw verify)");
    }
    return value;
  }

  /**
   * {@code payara}, {@code wildfly} or {@code openliberty}: the profile's arquillian.xml container.
   */
  public static String container() {
    return required("it.container");
  }

  public static boolean isPayara() {
    return container().equals("payara");
  }

  public static boolean isWildFly() {
    return container().equals("wildfly");
  }
}
