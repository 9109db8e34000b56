package io.github.limiter.cdi;

import io.github.limiter.NanoClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Time that moves only when a test says so; starts just below overflow, where careless arithmetic breaks. */
final class ManualClock implements NanoClock {

  private final AtomicLong nanos = new AtomicLong(Long.MAX_VALUE - Duration.ofHours(1).toNanos());

  @Override
  public long nanos() {
    return nanos.get();
  }

  void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }
}
