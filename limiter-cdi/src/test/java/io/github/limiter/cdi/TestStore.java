package io.github.limiter.cdi;

import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import java.time.Duration;

/** Replaces the configured store, as an application would: an in-memory store on the test clock. */
@Alternative
@Priority(100)
class TestStore {

  static final ManualClock CLOCK = ManualClock.at(Long.MAX_VALUE - Duration.ofHours(1).toNanos());

  @Produces
  @ApplicationScoped
  @Typed(RateLimitStore.class)
  RateLimitStore store() {
    return InMemoryStore.builder().clock(CLOCK).build();
  }

  void close(@Disposes RateLimitStore store) {
    store.close();
  }
}
