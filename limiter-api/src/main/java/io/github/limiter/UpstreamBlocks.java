package io.github.limiter;

/**
 * A store's view for an upstream's "blocked until", for outbound policies: {@code
 * store.view(UpstreamBlocks.class)}. A shared store shares its blocks, so that every node learns of
 * an upstream's refusal from one of them. Without it, a caller blocks on its own.
 */
public interface UpstreamBlocks {

  /**
   * Blocks every call under {@code key} of {@code policy} for {@code nanos} from now, unless the
   * block ends later already, and returns the nanoseconds the block still runs, 0 if none; {@code
   * nanos} 0 only reads. The time is the store's own clock. Best effort, never throws.
   */
  long block(Policy policy, String key, long nanos);
}
