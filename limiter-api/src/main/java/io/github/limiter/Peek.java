package io.github.limiter;

/**
 * A store's view for reading a key's state without charging or writing anything: {@code
 * store.view(Peek.class)}. For operators' tools, not the request path. A store that cannot read a
 * key's state without changing it does not offer it.
 */
public interface Peek {

  /**
   * What {@code key} has now under the policy version that {@code bound} decides: the admission a
   * request of no permits would get, with the limit that has the fewest permits left, that many
   * {@link Decision#remaining() remaining} and its {@link Decision#resetAfter() reset}. A key the
   * store does not hold reads as fresh. A state written under other limits of the policy reads as
   * {@link LiveVersions#rebind} carries it over.
   *
   * @param bound what {@link RateLimitStore#bind} or {@link LiveVersions#rebind} of this store
   *     returned
   * @throws RuntimeException if the store cannot be reached: a read has no failure mode to apply
   */
  Decision peek(PolicyStore bound, String key);

  /** As {@link #peek(PolicyStore, String)}, for the policy {@code policy} as it was bound. */
  Decision peek(Policy policy, String key);
}
