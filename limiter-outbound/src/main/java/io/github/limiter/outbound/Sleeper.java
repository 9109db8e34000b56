package io.github.limiter.outbound;

import java.util.concurrent.TimeUnit;

/** The waiting seam, beside {@link io.github.limiter.NanoClock}: tests advance a clock instead. */
@FunctionalInterface
interface Sleeper {

  /** Waits {@code nanos}; nothing for 0 or less. */
  void sleep(long nanos) throws InterruptedException;

  /** The thread sleeps. */
  Sleeper THREAD =
      nanos -> {
        if (nanos > 0) {
          TimeUnit.NANOSECONDS.sleep(nanos);
        }
      };
}
