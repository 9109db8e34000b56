package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;

/** The in-memory store against the contract, at 1 ns resolution. */
class InMemoryStoreContractTest extends RateLimitStoreContract {

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    return InMemoryStore.builder().clock(clock).build();
  }
}
