package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;

/** The in-memory store changes limits while it runs, keeping every key's state. */
class InMemoryLiveLimitsTest extends LiveLimitsContract {

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    return InMemoryStore.builder().clock(clock).build();
  }
}
