package io.github.limiter.it.harness;

/** Polling pauses for waiting on servers (never in algorithm tests: those use a manual clock). */
final class Pause {

  private Pause() {}

  static void millis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
