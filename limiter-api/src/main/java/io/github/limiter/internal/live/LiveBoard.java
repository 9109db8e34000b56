package io.github.limiter.internal.live;

import java.util.Map;

/**
 * Where a shared store keeps the policies' live versions and the keys' overrides, so that every
 * node, and every node that starts later, decides alike. A store that is shared between nodes
 * offers it as its {@link io.github.limiter.RateLimitStore#view view}; the in-memory store does
 * not, and its changes are for its own node.
 */
public interface LiveBoard {

  /** A policy's version as published: its number, its limits as text, and when it took effect. */
  record Published(long number, String limits, long sinceMicros) {}

  /**
   * A key's override as the board holds it.
   *
   * @param kind as {@link KeyOverride.Kind#configName()}
   * @param limits for a {@code limits} override, its limits as text; else empty
   * @param remainingMicros how long it applies from the reading on; -1 for until removed
   */
  record SharedOverride(String kind, String limits, long remainingMicros) {}

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

  /**
   * Sets the override of {@code key} under {@code policy} for {@code ttlMicros} (0: until removed),
   * replacing the one it had.
   */
  void putOverride(String policy, String key, String kind, String limits, long ttlMicros);

  /** Removes the override of {@code key} under {@code policy}; false if it had none. */
  boolean removeOverride(String policy, String key);

  /** The overrides that apply now: by policy, then by key. Ended ones are dropped. */
  Map<String, Map<String, SharedOverride>> readOverrides();
}
