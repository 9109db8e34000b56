package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.NanoClock;
import io.github.limiter.tck.ManualClock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A manual clock that can hold one thread inside one of its readings, as if that thread were
 * preempted right after reading the time: it gets the reading of the moment it asked, but only when
 * the test lets it go. Makes interleavings deterministic without sleeping.
 */
final class PausingClock implements NanoClock {

  final ManualClock clock;
  private final CountDownLatch paused = new CountDownLatch(1);
  private final CountDownLatch resume = new CountDownLatch(1);
  private volatile Thread target;
  private int readsToPass;

  PausingClock(long origin) {
    this.clock = ManualClock.at(origin);
  }

  /** Holds {@code thread} in its reading after {@code readsToPass} readings pass. */
  void pause(Thread thread, int readsToPass) {
    this.readsToPass = readsToPass;
    this.target = thread;
  }

  @Override
  public long nanos() {
    long reading = clock.nanos();
    if (Thread.currentThread() == target) {
      if (readsToPass-- == 0) {
        target = null;
        paused.countDown();
        try {
          resume.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    return reading;
  }

  /** Waits until the target thread is held. */
  void awaitPaused() throws InterruptedException {
    assertThat(paused.await(30, TimeUnit.SECONDS))
        .as("the thread reached the paused reading")
        .isTrue();
  }

  void resume() {
    resume.countDown();
  }
}
