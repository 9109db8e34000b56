package io.github.limiter;

/**
 * An invalid configuration value. The message names the key, the bad value and what was
 * expected, e.g. {@code limiter.policy.api.limits: expected <permits>/<period> ..., was '10 per
 * sec'}.
 */
public final class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;

  public ConfigException(String key, String message) {
    super(key + ": " + message);
    this.key = key;
  }

  public ConfigException(String key, String message, Throwable cause) {
    super(key + ": " + message, cause);
    this.key = key;
  }

  /** The offending key. */
  public String key() {
    return key;
  }
}
