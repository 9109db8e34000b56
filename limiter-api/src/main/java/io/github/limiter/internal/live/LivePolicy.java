package io.github.limiter.internal.live;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;

/**
 * One policy as the adapters bind it: every call goes to the store's handle of its current version,
 * read once per call, so that a decision is made under one version, old or new, never a mix.
 */
final class LivePolicy implements PolicyStore {

  /** A version and the store's handle of it. */
  record Current(LiveLimits.Version version, PolicyStore bound) {}

  private volatile Current current;

  LivePolicy(Current first) {
    this.current = first;
  }

  Current current() {
    return current;
  }

  /** Called under the registry's lock only, so that versions never go back. */
  void replace(Current next) {
    this.current = next;
  }

  @Override
  public Policy policy() {
    return current.version().policy();
  }

  @Override
  public Decision decide(String key, long permits) {
    return current.bound().decide(key, permits);
  }

  @Override
  public long tryAcquire(String key, long permits) {
    return current.bound().tryAcquire(key, permits);
  }

  @Override
  public void adjust(String key, long delta) {
    current.bound().adjust(key, delta);
  }
}
