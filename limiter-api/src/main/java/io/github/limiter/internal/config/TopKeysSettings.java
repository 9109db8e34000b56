package io.github.limiter.internal.config;

import io.github.limiter.Limit;
import java.time.Duration;

/**
 * The top keys of each policy, from {@code limiter.top-keys.*}: off unless enabled.
 *
 * @param enabled {@code limiter.top-keys.enabled}: whether the admission step counts keys at all
 * @param size {@code limiter.top-keys.size}: how many keys each list shows, 1 to {@value #MAX_SIZE}
 * @param window {@code limiter.top-keys.window}: the lists cover the current window and the one
 *     before it, from 1 s to 1 h
 */
public record TopKeysSettings(boolean enabled, int size, Duration window) {

  public static final int MAX_SIZE = 1000;
  static final Duration MIN_WINDOW = Duration.ofSeconds(1);
  static final Duration MAX_WINDOW = Duration.ofHours(1);

  public static final TopKeysSettings DEFAULTS =
      new TopKeysSettings(false, 10, Duration.ofMinutes(1));

  public TopKeysSettings {
    if (size < 1 || size > MAX_SIZE) {
      throw new IllegalArgumentException(
          "expected a number of keys from 1 to " + MAX_SIZE + ", was '" + size + "'");
    }
    window(window.toString());
  }

  /** Parses a window such as {@code 1m}, from 1 s to 1 h, or fails naming the text. */
  static Duration window(String text) {
    Duration window = Limit.parseDuration(text);
    if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
      throw new IllegalArgumentException(
          "expected a window from 1s to 1h such as 1m, was '" + text + "'");
    }
    return window;
  }
}
