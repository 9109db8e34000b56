package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;

/** The in-memory store's upstream blocks against the contract, at 1 ns resolution. */
class InMemoryBlockContractTest extends UpstreamBlockContract {

  @Override
  protected RateLimitStore createStore(NanoClock clock) {
    return InMemoryStore.builder().clock(clock).build();
  }
}
