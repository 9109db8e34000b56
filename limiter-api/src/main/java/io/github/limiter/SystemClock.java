package io.github.limiter;

/**
 * The default of {@link NanoClock#system()}, as an enum so that it serializes and compares by
 * identity.
 */
enum SystemClock implements NanoClock {
  MONOTONIC {
    @Override
    public long nanos() {
      return System.nanoTime();
    }
  }
}
