package io.github.limiter.internal.config;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import java.time.Duration;
import java.util.List;

/**
 * The declarations of a policy's settings that another module's section shares, where the meaning
 * is the same ({@link PolicySettings}' own, declared once), and the parsing of limits they need.
 */
public final class PolicyDeclarations {

  public static final Setting<Algorithm> ALGORITHM = PolicySettings.ALGORITHM;
  public static final Setting<String> LIMITS = PolicySettings.LIMITS;
  public static final Setting<Duration> RETRY_AFTER = PolicySettings.RETRY_AFTER;
  public static final Setting<Long> PERMITS = PolicySettings.PERMITS;
  public static final Setting<FailureMode> FAILURE = PolicySettings.FAILURE;

  private PolicyDeclarations() {}

  /**
   * The limits of {@code text} under {@code algorithm}, as a policy's {@code limits} reads them.
   */
  public static List<Limit> limits(String text, Algorithm algorithm, Duration retryAfter) {
    return Limits.parse(text, algorithm, retryAfter);
  }

  /** The most that the smallest of {@code limits} can ever admit at once. */
  public static long capacity(Algorithm algorithm, List<Limit> limits) {
    return Limits.capacity(algorithm, limits);
  }
}
