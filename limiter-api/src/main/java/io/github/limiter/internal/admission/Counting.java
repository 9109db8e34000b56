package io.github.limiter.internal.admission;

import io.github.limiter.internal.config.PolicyConfig;
import java.util.Set;

/**
 * Whether a request that ended so counts against its policy. Every request is charged when it is
 * admitted (so that concurrent requests can never pass the limit together); one that does not count
 * is refunded when it ends.
 */
@FunctionalInterface
public interface Counting {

  /** Every request counts: the default, settled at admission. */
  Counting ALL = (status, failure) -> true;

  /**
   * Whether a request that ended with HTTP {@code status} (-1 outside HTTP) and {@code failure}
   * (null if none) counts.
   */
  boolean counts(int status, Throwable failure);

  /**
   * The filter's rule for {@code count}: by response status; a request whose handling threw counts
   * as a 500.
   */
  static Counting byStatus(PolicyConfig.Count count) {
    if (count.all()) {
      return ALL;
    }
    Set<Integer> statuses = count.statuses();
    return (status, failure) -> statuses.contains(failure != null ? 500 : status);
  }

  /** {@code @Limited(countOn = ...)}: only calls that throw one of {@code failures} count. */
  static Counting byFailure(Set<Class<? extends Throwable>> failures) {
    if (failures.isEmpty()) {
      return ALL;
    }
    return (status, failure) -> {
      if (failure == null) {
        return false;
      }
      for (Class<? extends Throwable> type : failures) {
        if (type.isInstance(failure)) {
          return true;
        }
      }
      return false;
    };
  }
}
