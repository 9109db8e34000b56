package io.github.limiter;

/** The default {@link RateLimitStore#bind}: every call names the policy to the store. */
record UnboundPolicyStore(RateLimitStore store, Policy policy) implements PolicyStore {

  @Override
  public Decision decide(String key, long permits) {
    return store.decide(policy, key, permits);
  }

  @Override
  public long tryAcquire(String key, long permits) {
    return store.tryAcquire(policy, key, permits);
  }

  @Override
  public void adjust(String key, long delta) {
    store.adjust(policy, key, delta);
  }
}
