package io.github.limiter.internal.live;

import java.util.Map;

/**
 * Where a shared store keeps the policies' live versions, so that every node, and every node that
 * starts later, decides under the same limits. A store that is shared between nodes implements it;
 * the in-memory store does not, and its changes are for its own node.
 */
public interface VersionBoard {

  /** A policy's version as published: its number, its limits as text, and when it took effect. */
  record Published(long number, String limits, long sinceMicros) {}

  /**
   * Publishes version {@code number} of {@code policy}'s limits, if the board holds an older one
   * (or none): one atomic step, so that two nodes changing at once cannot both win.
   *
   * @return the version the board holds afterwards: {@code number} with its start, or the newer one
   *     that won
   */
  Published publish(String policy, long number, String limits);

  /** Every published version, by policy name. */
  Map<String, Published> read();
}
