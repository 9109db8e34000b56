package io.github.limiter.internal.log;

import io.github.limiter.NanoClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@link java.util.logging} line at most once per interval: the lines in between are counted, not
 * written, and the next line written says how many there were. For stores and adapters that must
 * not flood a log while something is broken on every request.
 */
public final class RateLimitedLog {

  private final Logger logger;
  private final NanoClock clock;
  private final String sourceClass;
  private final long intervalNanos;
  private final AtomicLong due;
  private final LongAdder suppressed = new LongAdder();

  /**
   * Lines of {@code logger}, attributed to {@code sourceClass}, at most one per {@code interval}.
   */
  public RateLimitedLog(Logger logger, Class<?> sourceClass, Duration interval) {
    this(logger, sourceClass, interval, NanoClock.system());
  }

  /** As above, with the interval measured by {@code clock}. */
  public RateLimitedLog(Logger logger, Class<?> sourceClass, Duration interval, NanoClock clock) {
    this.logger = logger;
    this.clock = clock;
    this.sourceClass = sourceClass.getName();
    this.intervalNanos = interval.toNanos();
    this.due = new AtomicLong(clock.nanos());
  }

  /** Writes {@code message} unless a line was written less than an interval ago; whether it did. */
  public boolean log(Level level, String sourceMethod, String message) {
    if (!logger.isLoggable(level)) {
      return false;
    }
    long now = clock.nanos();
    long next = due.get();
    if (now - next < 0 || !due.compareAndSet(next, now + intervalNanos)) {
      suppressed.increment();
      return false;
    }
    long more = suppressed.sumThenReset();
    logger.logp(
        level,
        sourceClass,
        sourceMethod,
        more == 0
            ? message
            : message + " (and " + more + " more like it since the last such message)");
    return true;
  }
}
