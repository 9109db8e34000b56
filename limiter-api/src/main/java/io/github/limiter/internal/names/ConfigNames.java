package io.github.limiter.internal.names;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The one lookup of an enum constant by its configuration name, such as {@code token-bucket}: the
 * API's enums and the internal ones alike. A package of its own that uses nothing else of the core,
 * so that the API's enums may use it without a cycle.
 */
public final class ConfigNames {

  private ConfigNames() {}

  /**
   * The constant of {@code type} whose {@code name} is {@code text}, ignoring case and surrounding
   * blanks; null for null or a text that names none (an untrusted header, say).
   */
  public static <E extends Enum<E>> E find(Class<E> type, Function<E, String> name, String text) {
    if (text == null) {
      return null;
    }
    String normalized = text.trim().toLowerCase(Locale.ROOT);
    for (E constant : type.getEnumConstants()) {
      if (name.apply(constant).equals(normalized)) {
        return constant;
      }
    }
    return null;
  }

  /**
   * As {@link #find}, for a configured value.
   *
   * @throws IllegalArgumentException naming the accepted names and the text, e.g. {@code expected
   *     evict or reject-new-keys, was 'drop'}
   */
  public static <E extends Enum<E>> E parse(Class<E> type, Function<E, String> name, String text) {
    E found = find(type, name, text);
    if (found == null) {
      throw new IllegalArgumentException(
          "expected " + choices(names(type, name)) + ", was '" + text + "'");
    }
    return found;
  }

  /** The configuration names of {@code type}'s constants, in their order. */
  public static <E extends Enum<E>> List<String> names(Class<E> type, Function<E, String> name) {
    return Arrays.stream(type.getEnumConstants()).map(name).toList();
  }

  /** {@code a}, {@code a or b}, {@code a, b or c}: the names as a message lists them. */
  public static String choices(List<String> names) {
    int last = names.size() - 1;
    return last <= 0
        ? String.join("", names)
        : String.join(", ", names.subList(0, last)) + " or " + names.get(last);
  }
}
