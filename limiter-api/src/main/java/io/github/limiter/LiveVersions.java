package io.github.limiter;

/**
 * A store's view for changing a policy's limits while the application runs, keeping every key's
 * state: {@code store.view(LiveVersions.class)}. A store that cannot carry a key's state over to
 * new limits does not offer it, because it must not reset that state.
 */
public interface LiveVersions {

  /**
   * The store's decisions for {@code next}, a new version of the policy that {@code bound} decides:
   * the same name and algorithm with other limits, replacing it while the application runs. Every
   * key keeps its state as of this call, carried over by its algorithm's rule (documented on each
   * algorithm of the core), so that nothing resets and no key gets a fresh burst, and the time
   * after it runs under the new limits alone; a request that still decides through {@code bound}
   * decides under one version or the other, never a mix.
   *
   * @param bound what {@link RateLimitStore#bind} or an earlier {@code rebind} of this store
   *     returned
   * @throws UnsupportedOperationException if this policy cannot change limits while it runs (e.g. a
   *     policy whose slices a lease holds)
   * @throws IllegalArgumentException if {@code next} is not a version of {@code bound}'s policy, or
   *     {@code bound} was replaced already
   */
  PolicyStore rebind(PolicyStore bound, Policy next);
}
