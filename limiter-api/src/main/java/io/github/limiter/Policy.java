package io.github.limiter;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * A named, immutable rate-limit policy: one algorithm and one or more limits that apply
 * all-or-nothing, plus what to do when the store cannot decide.
 *
 * <p>Build one with the factory named after its algorithm; its failure mode is {@link
 * FailureMode#LOCAL}, as in configuration, until {@link #withFailureMode} says otherwise:
 *
 * <pre>{@code
 * Policy api = Policy.tokenBucket("api", Limit.bucket(10, Duration.ofSeconds(1), 20));
 * Policy login = Policy.fixedWindow("login", Limit.of(5, Duration.ofMinutes(1)), Limit.of(20, Duration.ofHours(1)));
 * }</pre>
 */
public final class Policy {

  /** The largest concurrency limit: a bound on requests in flight, not a rate. */
  public static final long MAX_IN_FLIGHT = 1_000_000;

  /** The shortest Retry-After hint of a concurrency policy. */
  private static final Duration MIN_RETRY_AFTER = Duration.ofMillis(1);

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private final String name;
  private final Algorithm algorithm;
  private final List<Limit> limits;
  private final FailureMode failureMode;
  private final int hash;

  /**
   * @throws IllegalArgumentException naming what is wrong and the bad value
   */
  public Policy(String name, Algorithm algorithm, List<Limit> limits, FailureMode failureMode) {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(failureMode, "failureMode");
    if (!isValidName(name)) {
      throw new IllegalArgumentException(
          "policy name: expected 1-64 letters, digits, '.', '_' or '-', starting with a letter or"
              + " digit, was '"
              + name
              + "'");
    }
    this.name = name;
    this.algorithm = algorithm;
    this.limits = List.copyOf(limits);
    this.failureMode = failureMode;
    if (this.limits.isEmpty()) {
      throw new IllegalArgumentException("policy '" + name + "': needs at least one limit");
    }
    if (!algorithm.isBucket()) {
      for (Limit limit : this.limits) {
        if (!limit.isQuota() && (limit.burst() != limit.permits() || limit.initial().isPresent())) {
          throw new IllegalArgumentException(
              "policy '"
                  + name
                  + "': burst and initial apply to token-bucket and leaky-bucket only,"
                  + " not to "
                  + algorithm
                  + ", was '"
                  + limit
                  + "'");
        }
      }
    }
    if (algorithm == Algorithm.CONCURRENCY) {
      if (this.limits.stream().anyMatch(Limit::isQuota)) {
        throw new IllegalArgumentException(
            "policy '"
                + name
                + "': a concurrency policy has no calendar quota, was "
                + this.limits);
      }
      if (this.limits.size() != 1) {
        throw new IllegalArgumentException(
            "policy '" + name + "': a concurrency policy has one limit, was " + this.limits);
      }
      if (this.limits.get(0).permits() > MAX_IN_FLIGHT) {
        throw new IllegalArgumentException(
            "policy '"
                + name
                + "': at most "
                + MAX_IN_FLIGHT
                + " requests in flight, was "
                + this.limits.get(0).permits());
      }
    }
    if (algorithm == Algorithm.SLIDING_WINDOW_LOG) {
      for (Limit limit : this.limits) {
        if (!limit.isQuota() && limit.permits() > 1 << 20) {
          throw new IllegalArgumentException(
              "a sliding-window-log keeps one timestamp per permit; at most 1048576 permits, was "
                  + limit.permits()
                  + " (use sliding-window-counter)");
        }
      }
    }
    this.hash = Objects.hash(name, algorithm, this.limits, failureMode);
  }

  /**
   * Whether {@code name} can name a policy: 1-64 letters, digits, '.', '_' or '-', starting with a
   * letter or digit.
   */
  public static boolean isValidName(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  public static Policy fixedWindow(String name, Limit... limits) {
    return new Policy(name, Algorithm.FIXED_WINDOW, List.of(limits), FailureMode.LOCAL);
  }

  public static Policy slidingWindowCounter(String name, Limit... limits) {
    return new Policy(name, Algorithm.SLIDING_WINDOW_COUNTER, List.of(limits), FailureMode.LOCAL);
  }

  public static Policy slidingWindowLog(String name, Limit... limits) {
    return new Policy(name, Algorithm.SLIDING_WINDOW_LOG, List.of(limits), FailureMode.LOCAL);
  }

  public static Policy tokenBucket(String name, Limit... limits) {
    return new Policy(name, Algorithm.TOKEN_BUCKET, List.of(limits), FailureMode.LOCAL);
  }

  public static Policy leakyBucket(String name, Limit... limits) {
    return new Policy(name, Algorithm.LEAKY_BUCKET, List.of(limits), FailureMode.LOCAL);
  }

  /**
   * At most {@code maxInFlight} requests per key at once; each holds its permits until it ends. A
   * rejection says to retry after {@code retryAfter}, since no store knows when a request ends.
   */
  public static Policy concurrency(String name, long maxInFlight, Duration retryAfter) {
    if (maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
      throw new IllegalArgumentException(
          "policy '"
              + name
              + "': requests in flight must be between 1 and "
              + MAX_IN_FLIGHT
              + ", was "
              + maxInFlight);
    }
    if (retryAfter.compareTo(MIN_RETRY_AFTER) < 0) {
      throw new IllegalArgumentException(
          "policy '" + name + "': retry-after must be at least 1ms, was " + retryAfter);
    }
    return new Policy(
        name, Algorithm.CONCURRENCY, List.of(Limit.of(maxInFlight, retryAfter)), FailureMode.LOCAL);
  }

  /** A copy with another failure mode. */
  public Policy withFailureMode(FailureMode mode) {
    return new Policy(name, algorithm, limits, mode);
  }

  /**
   * A copy for one of {@code nodes} nodes that each decide locally: windows admit N/nodes, buckets
   * refill at r/nodes with capacity b/nodes. Counts round down but stay at least 1.
   */
  public Policy dividedBy(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("nodes must be at least 1, was " + nodes);
    }
    if (nodes == 1) {
      return this;
    }
    List<Limit> divided = limits.stream().map(limit -> share(limit, nodes)).toList();
    return new Policy(name, algorithm, divided, failureMode);
  }

  private Limit share(Limit limit, int nodes) {
    if (limit.isQuota()) {
      return Limit.quota(Math.max(1, limit.permits() / nodes), limit.calendar())
          .inCalendar(limit.zone(), limit.anchorDay());
    }
    if (!algorithm.isBucket()) {
      return Limit.of(Math.max(1, limit.permits() / nodes), limit.period());
    }
    long burst = Math.max(1, limit.burst() / nodes);
    OptionalLong initial =
        limit.initial().isPresent()
            ? OptionalLong.of(Math.min(burst, limit.initial().getAsLong() / nodes))
            : OptionalLong.empty();
    return new Limit(limit.permits(), limit.period().multipliedBy(nodes), burst, initial);
  }

  public String name() {
    return name;
  }

  public Algorithm algorithm() {
    return algorithm;
  }

  public List<Limit> limits() {
    return limits;
  }

  public FailureMode failureMode() {
    return failureMode;
  }

  @Override
  public boolean equals(Object o) {
    return o == this
        || o instanceof Policy p
            && hash == p.hash
            && name.equals(p.name)
            && algorithm == p.algorithm
            && limits.equals(p.limits)
            && failureMode == p.failureMode;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return name + "(" + algorithm + " " + limits + ", " + failureMode + ")";
  }
}
