package io.github.limiter;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

/** The one lookup of an enum constant by its configuration name, such as {@code token-bucket}. */
final class ConfigNames {

  private ConfigNames() {}

  /**
   * The constant of {@code type} whose {@code name} is {@code text}, ignoring case and surrounding
   * blanks.
   *
   * @throws IllegalArgumentException naming the text and the accepted names
   */
  static <E extends Enum<E>> E parse(Class<E> type, Function<E, String> name, String text) {
    String normalized = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    E[] constants = type.getEnumConstants();
    for (E constant : constants) {
      if (name.apply(constant).equals(normalized)) {
        return constant;
      }
    }
    throw new IllegalArgumentException(
        "expected one of " + Arrays.stream(constants).map(name).toList() + ", was '" + text + "'");
  }
}
