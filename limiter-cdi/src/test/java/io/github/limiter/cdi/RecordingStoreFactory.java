package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.spi.StoreFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code limiter.store=recording}: an in-memory store that counts how often it is created and
 * closed.
 */
public final class RecordingStoreFactory implements StoreFactory {

  static final AtomicInteger CREATED = new AtomicInteger();
  static final AtomicInteger CLOSED = new AtomicInteger();

  @Override
  public String name() {
    return "recording";
  }

  @Override
  public RateLimitStore create(ConfigLookup config) {
    CREATED.incrementAndGet();
    InMemoryStore delegate = InMemoryStore.builder().clock(TestStore.CLOCK).build();
    return new RateLimitStore() {
      @Override
      public Decision decide(Policy policy, String key, long permits) {
        return delegate.decide(policy, key, permits);
      }

      @Override
      public void adjust(Policy policy, String key, long delta) {
        delegate.adjust(policy, key, delta);
      }

      @Override
      public TimeSource timeSource() {
        return delegate.timeSource();
      }

      @Override
      public void close() {
        CLOSED.incrementAndGet();
        delegate.close();
      }
    };
  }
}
