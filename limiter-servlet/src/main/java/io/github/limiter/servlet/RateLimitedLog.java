package io.github.limiter.servlet;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/** A log line at most once per interval; the lines in between are counted, not written. */
final class RateLimitedLog {

  static final long INTERVAL_SECONDS = 60;

  private final Logger logger;
  private final long intervalNanos;
  private final AtomicLong due;
  private final LongAdder suppressed = new LongAdder();

  RateLimitedLog(Logger logger) {
    this.logger = logger;
    this.intervalNanos = TimeUnit.SECONDS.toNanos(INTERVAL_SECONDS);
    this.due = new AtomicLong(System.nanoTime());
  }

  void log(Level level, String message) {
    if (!logger.isLoggable(level)) {
      return;
    }
    long now = System.nanoTime();
    long next = due.get();
    if (now - next < 0 || !due.compareAndSet(next, now + intervalNanos)) {
      suppressed.increment();
      return;
    }
    long more = suppressed.sumThenReset();
    logger.logp(level, RateLimitFilter.class.getName(), "doFilter",
        more == 0 ? message : message + " (and " + more + " more like it since the last such message)");
  }
}
