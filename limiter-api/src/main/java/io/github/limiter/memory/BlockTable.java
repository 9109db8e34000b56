package io.github.limiter.memory;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The upstream blocks of an {@link InMemoryStore} ({@link io.github.limiter.UpstreamBlocks#block}):
 * one end time per policy and key, forgotten once past. Bounded like the store's keys: a full table
 * first forgets the ended blocks, then records no new one, whose caller still blocks on its own.
 */
final class BlockTable {

  private final ConcurrentHashMap<String, Long> ends = new ConcurrentHashMap<>();
  private final int maxKeys;

  BlockTable(int maxKeys) {
    this.maxKeys = maxKeys;
  }

  /** Blocks {@code id} until {@code now + nanos} unless it ends later; the block left, or 0. */
  long block(String id, long now, long nanos) {
    if (nanos > 0) {
      if (ends.size() >= maxKeys) {
        ends.values().removeIf(end -> end - now <= 0);
      }
      if (ends.size() < maxKeys || ends.containsKey(id)) {
        ends.merge(id, now + nanos, (held, asked) -> held - asked > 0 ? held : asked);
      }
    }
    Long end = ends.get(id);
    long left = end == null ? 0 : end - now;
    if (end != null && left <= 0) {
      ends.remove(id, end);
    }
    return Math.max(Math.max(left, nanos), 0);
  }
}
