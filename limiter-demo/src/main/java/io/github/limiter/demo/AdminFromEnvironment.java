package io.github.limiter.demo;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Turns the demo's admin API and operator console on when the environment variable {@code
 * LIMITER_ADMIN_TOKEN} holds a token, and leaves them off when it is unset or blank: the token is
 * the admin API's only way in, so without one there is nothing to serve. MicroProfile Config maps
 * that variable to {@code limiter.admin.token} itself. Its ordinal is below the properties file's,
 * so {@code LIMITER_ADMIN_ENABLED=false} still turns the console off. Found through {@code
 * META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}.
 */
public class AdminFromEnvironment implements ConfigSource {

  static final String TOKEN_VARIABLE = "LIMITER_ADMIN_TOKEN";

  private final Map<String, String> properties;

  public AdminFromEnvironment() {
    this(System.getenv(TOKEN_VARIABLE));
  }

  AdminFromEnvironment(String token) {
    this.properties =
        token == null || token.isBlank() ? Map.of() : Map.of("limiter.admin.enabled", "true");
  }

  @Override
  public Set<String> getPropertyNames() {
    return properties.keySet();
  }

  @Override
  public Map<String, String> getProperties() {
    return properties;
  }

  @Override
  public String getValue(String propertyName) {
    return properties.get(propertyName);
  }

  @Override
  public String getName() {
    return "limiter-demo: admin on when " + TOKEN_VARIABLE + " is set";
  }

  @Override
  public int getOrdinal() {
    return 50;
  }
}
