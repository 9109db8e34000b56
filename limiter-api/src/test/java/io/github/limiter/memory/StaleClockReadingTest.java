package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.memory.InMemoryStore.Overflow;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A thread may be preempted between reading the clock and reading a key's state, and meanwhile
 * another thread may move the key into a later window. A decision or a sweep must never judge a
 * newer state by the older reading.
 */
class StaleClockReadingTest {

  static final long S = Duration.ofSeconds(1).toNanos();
  static final Policy TWO_PER_SECOND =
      Policy.slidingWindowCounter("swc", Limit.of(2, Duration.ofSeconds(1)));

  // Regression: the store read the clock before the state. A decision held in between saw the
  // state of the next window with a reading of the previous one, took both counts for zero, and
  // overwrote the newer window: the sliding counter forgot admissions.
  @Test
  void aDecisionHeldAfterReadingTheClockCannotEraseNewerCounts() throws Exception {
    // Given 1 of 2 admitted halfway through window 0
    PausingClock clock = new PausingClock(ManualClock.NEAR_MAX);
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    clock.clock.advance(S / 2);
    assertThat(store.decide(TWO_PER_SECOND, "k", 1).isAllowed()).isTrue();
    // and a thread held in its first clock reading for that key (at 0.5 s)
    AtomicReference<Decision> held = new AtomicReference<>();
    Thread late = new Thread(() -> held.set(store.decide(TWO_PER_SECOND, "k", 1)));
    clock.pause(late, 0);
    late.start();
    clock.awaitPaused();

    // When window 1 opens and admits one (est = 1 + 0 < 2), then the held thread goes on
    clock.clock.advance(S / 2);
    Decision windowOne = store.decide(TWO_PER_SECOND, "k", 1);
    clock.resume();
    late.join();
    Decision next = store.decide(TWO_PER_SECOND, "k", 1);

    // Then no order of these requests admits more than 2: est = 1 + 1 at the start of window 1
    long admitted =
        1
            + (windowOne.isAllowed() ? 1 : 0)
            + (held.get().isAllowed() ? 1 : 0)
            + (next.isAllowed() ? 1 : 0);
    assertThat(admitted).isLessThanOrEqualTo(2);
    assertThat(next.isAllowed()).isFalse();
  }

  // Regression: the sweep read the clock once, then judged the keys it scanned by that reading. A
  // key moved into a later window meanwhile looked empty (fresh), and was reclaimed with its
  // counts.
  @Test
  void aSweepHeldAfterReadingTheClockCannotReclaimAKeyMovedIntoALaterWindow() throws Exception {
    // Given a full store (REJECT_NEW_KEYS: no eviction) whose one key was admitted in window 0
    PausingClock clock = new PausingClock(ManualClock.JUST_BELOW_ZERO);
    InMemoryStore store =
        InMemoryStore.builder().clock(clock).maxKeys(1).overflow(Overflow.REJECT_NEW_KEYS).build();
    clock.clock.advance(S / 2);
    assertThat(store.decide(TWO_PER_SECOND, "k", 1).isAllowed()).isTrue();
    // and a new key whose insert sweeps, held on its second reading of the clock: inside the sweep
    Thread newcomer = new Thread(() -> store.decide(TWO_PER_SECOND, "new", 1));
    clock.pause(newcomer, 1);
    newcomer.start();
    clock.awaitPaused();

    // When window 1 opens and the key takes its last permit (est = 1 + 1), then the sweep goes on
    clock.clock.advance(S / 2);
    assertThat(store.decide(TWO_PER_SECOND, "k", 1).isAllowed()).isTrue();
    clock.resume();
    newcomer.join();

    // Then the key was not reclaimed: it is still there, and full
    assertThat(store.decide(TWO_PER_SECOND, "k", 1).outcome()).isEqualTo(Decision.Outcome.LIMITED);
  }
}
