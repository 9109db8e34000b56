package io.github.limiter;

/**
 * A store's decisions for one policy, bound once by {@link RateLimitStore#bind}. Adapters bind each
 * configured policy at start-up, so that a decision goes straight to that policy's keys instead of
 * looking the policy up first. The contract of each method is that of its {@link RateLimitStore}
 * namesake for {@link #policy()}.
 */
public interface PolicyStore {

  /** The policy this handle decides. */
  Policy policy();

  /** As {@link RateLimitStore#decide}. */
  Decision decide(String key, long permits);

  /** As {@link RateLimitStore#tryAcquire}. */
  long tryAcquire(String key, long permits);

  /** As {@link RateLimitStore#adjust}. */
  void adjust(String key, long delta);

  /** As {@link RateLimitStore#refund}. */
  default void refund(String key, long permits) {
    adjust(key, -permits);
  }
}
