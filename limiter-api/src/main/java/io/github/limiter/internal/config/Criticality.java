package io.github.limiter.internal.config;

import io.github.limiter.internal.names.ConfigNames;

/**
 * How much a request matters when a concurrency limit is nearly full: under overload {@code
 * sheddable} requests are refused first and {@code critical} ones last. A share of the limit
 * ({@code critical-share}) is kept for critical requests: a default request may fill the limit but
 * that share, a sheddable one the limit but twice that share.
 *
 * <p>Why the share must not be small: lower requests keep the limit filled to their ceiling, so a
 * critical request finds room only in what they leave free. That room fills when critical requests
 * arrive faster than requests end: at a critical arrival rate of {@code ρ} times the rate requests
 * end, about {@code ρ^k} of them find {@code k} free permits taken, and a backend that stalls for
 * {@code t} (a pause, a noisy neighbour) ends nothing while {@code t} times the critical rate
 * arrives. Under an adaptive limit the room costs no throughput, since the limit grows until the
 * lower requests, at their ceiling, queue to the tolerance: hence a larger default there.
 */
public enum Criticality {
  CRITICAL("critical", 0),
  DEFAULT("default", 1),
  SHEDDABLE("sheddable", 2);

  /**
   * The share an adaptive limit keeps for critical requests unless {@code critical-share} says:
   * sheddable requests leave 40% of it free, default ones 20%.
   */
  public static final double ADAPTIVE_SHARE = 0.2;

  private final String configName;

  /** How many reserved shares of the limit this criticality must leave free. */
  private final int sharesLeft;

  Criticality(String configName, int sharesLeft) {
    this.configName = configName;
    this.sharesLeft = sharesLeft;
  }

  public String configName() {
    return configName;
  }

  /**
   * The permits this criticality must leave free under {@code limit}: each reserved share is {@code
   * ceil(limit · share)}, at least 1 when the share is not 0, and never so much that nothing is
   * left.
   */
  public long headroom(long limit, double share) {
    return sharesLeft == 0 || share == 0
        ? 0
        : Math.min(limit - 1, reserved(limit, share) * sharesLeft);
  }

  /**
   * One reserved share of {@code limit}: {@code ceil(limit · share)}, at least 1 when the share is
   * not 0.
   */
  public static long reserved(long limit, double share) {
    return share == 0 ? 0 : Math.max(1, (long) Math.ceil(limit * share));
  }

  /** The criticality named {@code text}, or null for a name that is none (an untrusted header). */
  public static Criticality find(String text) {
    return ConfigNames.find(Criticality.class, Criticality::configName, text);
  }

  /**
   * Parses {@code critical}, {@code default} or {@code sheddable}.
   *
   * @throws IllegalArgumentException naming the text and the accepted names
   */
  public static Criticality parse(String text) {
    return ConfigNames.parse(Criticality.class, Criticality::configName, text);
  }

  @Override
  public String toString() {
    return configName;
  }
}
