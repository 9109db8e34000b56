package io.github.limiter.redis;

import java.util.Locale;

/**
 * How script calls reach a Redis node ({@code limiter.redis.pipeline.enabled}): straight out on a
 * pooled connection, or queued and written with other callers' calls as one pipeline.
 */
enum DispatchMode {
  /**
   * A call goes straight out while fewer than {@link #STRAIGHT_OUT} calls are out straight on its
   * node, as in direct mode; otherwise it queues, as in pipelined mode, with up to {@link
   * #AUTO_PIPELINES} pipelines in flight. A lone caller never queues; many concurrent callers share
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

  /**
   * In auto mode, the most calls out straight at once on one node. With one, a second caller on
   * another key already queued, and 8 callers on distinct keys ran at 0.6× direct mode's rate on 2
   * cores (docs/benchmarks.md).
   */
  static final int STRAIGHT_OUT = 2;

  /**
   * In auto mode, the most pipelines in flight at once on one node, each on its own connection: one
   * serialized a handful of callers behind its round trip; four kept 16 and 32 callers on distinct
   * keys ahead of direct mode (docs/benchmarks.md).
   */
  static final int AUTO_PIPELINES = 4;

  /** Whether the mode has a pipeline dispatcher. */
  boolean pipelines() {
    return this != DIRECT;
  }

  /**
   * The most pipelines in flight at once on one node of {@code connections} pooled connections, for
   * a mode that {@link #pipelines}: never more than the connections, since each needs its own.
   */
  int pipelinesInFlight(int connections) {
    return this == AUTO ? Math.min(AUTO_PIPELINES, connections) : 1;
  }
}
