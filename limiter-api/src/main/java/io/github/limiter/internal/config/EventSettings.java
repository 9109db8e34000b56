package io.github.limiter.internal.config;

/**
 * What adapters that fire events need, from {@code limiter.events.*}.
 *
 * @param nearLimit an admission is near the limit when at most this fraction of the quota is left
 *     ({@code limiter.events.near-limit}); above 0 and at most 1
 */
public record EventSettings(double nearLimit) {

  public static final EventSettings DEFAULTS = new EventSettings(0.1);

  public EventSettings {
    if (!(nearLimit > 0 && nearLimit <= 1)) {
      throw new IllegalArgumentException(
          "expected a fraction of the quota above 0 and at most 1, such as 0.1, was '"
              + nearLimit
              + "'");
    }
  }

  /** Parses a fraction such as {@code 0.1}, or fails naming the text. */
  static double parseFraction(String text) {
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      value = Double.NaN;
    }
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException(
          "expected a fraction of the quota above 0 and at most 1, such as 0.1, was '"
              + text
              + "'");
    }
    return value;
  }
}
