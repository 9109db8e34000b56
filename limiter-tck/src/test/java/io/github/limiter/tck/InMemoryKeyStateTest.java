package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;

/** The in-memory store reads a key's state without charging it. */
class InMemoryKeyStateTest extends KeyStateContract {

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    return InMemoryStore.builder().clock(clock).build();
  }
}
