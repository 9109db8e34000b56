package io.github.limiter.internal.insight;

import java.util.Comparator;

/**
 * A key's count in a heavy-hitters sketch: at most {@code count}, at least {@code count - error}.
 *
 * @param key the client key, as the policy keys it (never a metric tag)
 * @param count the key's count, an upper bound
 * @param error how much of {@code count} may belong to keys it displaced; 0: exact
 */
public record KeyCount(String key, long count, long error) {

  /** The largest count first, then by key, for a stable listing. */
  static final Comparator<KeyCount> LARGEST_FIRST =
      Comparator.comparingLong(KeyCount::count).reversed().thenComparing(KeyCount::key);

  /** The count the key surely had: {@code count - error}. */
  public long guaranteed() {
    return count - error;
  }
}
