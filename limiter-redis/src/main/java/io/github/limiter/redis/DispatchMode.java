package io.github.limiter.redis;

import java.util.Locale;

/**
 * How script calls reach a Redis node ({@code limiter.redis.pipeline.enabled}): straight out on a
 * pooled connection, or queued and written with other callers' calls as one pipeline.
 */
enum DispatchMode {
  /**
   * A call goes straight out while no other call is under way on its node, as in direct mode;
   * otherwise it queues, as in pipelined mode. A lone caller never queues; concurrent callers share
   * round trips.
   */
  AUTO,
  /** Every call queues and goes out in a pipeline. */
  PIPELINED,
  /** Every call is its own round trip on a pooled connection. */
  DIRECT;

  /** The setting's text: {@code auto}, {@code true} (pipelined) or {@code false} (direct). */
  static DispatchMode parse(String text) {
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "auto" -> AUTO;
      case "true" -> PIPELINED;
      case "false" -> DIRECT;
      default ->
          throw new IllegalArgumentException("expected auto, true or false, was '" + text + "'");
    };
  }

  /** Whether the mode has a pipeline dispatcher. */
  boolean pipelines() {
    return this != DIRECT;
  }
}
