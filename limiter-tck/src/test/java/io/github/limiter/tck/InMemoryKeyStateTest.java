package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;
import java.time.Clock;

/** The in-memory store reads a key's state without charging it. */
class InMemoryKeyStateTest extends KeyStateContract {

  @Override
  protected RateLimitStore createStore(NanoClock clock, Clock wallClock) {
    return InMemoryStore.builder().clock(clock).wallClock(wallClock).build();
  }
}
