package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;
import java.time.Clock;

/** Calendar quotas in the in-memory store. */
class InMemoryCalendarQuotaTest extends CalendarQuotaContract {

  @Override
  protected RateLimitStore createStore(NanoClock clock, Clock wallClock) {
    return InMemoryStore.builder().clock(clock).wallClock(wallClock).build();
  }
}
