package io.github.limiter.redis;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;

/**
 * One version of a policy after {@link RedisStore#rebind}: decisions with its own compiled scripts.
 */
final class CompiledVersion implements PolicyStore {
  private final RedisStore store;
  final CompiledPolicy c;

  CompiledVersion(RedisStore store, CompiledPolicy c) {
    this.store = store;
    this.c = c;
  }

  @Override
  public Policy policy() {
    return c.policy;
  }

  @Override
  public Decision decide(String key, long permits) {
    return store.decide(c, key, permits);
  }

  @Override
  public long tryAcquire(String key, long permits) {
    Decision decision = decide(key, permits);
    return decision.isAllowed() ? 0 : Math.max(1, decision.retryAfterNanos());
  }

  @Override
  public void adjust(String key, long delta) {
    if (delta != 0) {
      store.adjust(c, key, delta);
    }
  }
}
