package io.github.limiter.internal.algorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.tck.ManualClock;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * The adaptive controller, driven with recorded latencies on a manual clock, and against a
 * simulated backend of known capacity: never on real time.
 */
class AdaptiveLimitTest {

  private static final long MS = 1_000_000L;

  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);

  /**
   * Feeds {@code windows} full windows of {@code latency} with {@code inFlight} each, 1 ms apart.
   */
  private void feed(AdaptiveLimit limit, int windows, long latency, int inFlight) {
    for (int i = 0; i < windows * AdaptiveLimit.WINDOW_SAMPLES; i++) {
      limit.sample(latency, inFlight, clock.advance(MS));
    }
  }

  /** Measures the baseline: one probe window of {@code latency}, one request in flight. */
  private void probe(AdaptiveLimit limit, long latency) {
    assertThat(limit.probing()).isTrue();
    feed(limit, 1, latency, 1);
    assertThat(limit.probing()).isFalse();
  }

  @Test
  void holdsTheLimitLowUntilItHasMeasuredTheBaselineThenStartsAtTheInitialLimit() {
    // Given a new limit, initially 50
    AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 50, 1.5);
    // Then it admits 3 until the baseline is measured
    assertThat(limit.limit()).isEqualTo(AdaptiveLimit.PROBE_IN_FLIGHT);
    assertThat(limit.learnedLimit()).isEqualTo(50);
    // When a window of requests ends
    feed(limit, 1, 20 * MS, 3);
    // Then that is the baseline, and the limit the initial one
    assertThat(limit.baselineNanos()).isEqualTo(20 * MS);
    assertThat(limit.limit()).isEqualTo(50);
  }

  @Test
  void aBaselineThatNoWindowConfirmedForFiveMinutesIsMeasuredAgain() {
    // Given a limit whose baseline is 20 ms, under windows within the tolerance but above it
    AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 50, 1.5);
    probe(limit, 20 * MS);
    long probed = clock.nanos();
    while (clock.nanos() - probed < (AdaptiveLimit.BASELINE_MAX_AGE_SECONDS - 1) * 1_000 * MS) {
      limit.sample(25 * MS, 50, clock.advance(100 * MS));
    }
    // Then no probe ran meanwhile
    assertThat(limit.probing()).isFalse();
    // When the baseline is five minutes old, a probe starts
    limit.sample(25 * MS, 50, clock.advance(1_000 * MS));
    assertThat(limit.probing()).isTrue();
    // And requests admitted before it began, which may have queued, measure nothing
    feed(limit, 3, 2 * 1_000 * MS, 50);
    assertThat(limit.probing()).isTrue();
    // And the requests admitted during the probe measure the baseline
    probe(limit, 18 * MS);
    assertThat(limit.baselineNanos()).isEqualTo(18 * MS);
    assertThat(limit.limit()).isEqualTo(limit.learnedLimit());
  }

  @Test
  void windowsAsFastAsTheBaselineConfirmItSoNoProbeRuns() {
    // Given a limit whose baseline is 20 ms
    AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 50, 1.5);
    probe(limit, 20 * MS);
    // When requests keep taking 20 ms for ten minutes
    for (int i = 0; i < 6_000; i++) {
      limit.sample(20 * MS, 10, clock.advance(100 * MS));
      // Then the limit never probes
      assertThat(limit.probing()).isFalse();
    }
  }

  @Test
  void growsWhileLatencyStaysAtItsBaselineAndTheTrafficFillsTheLimit() {
    // Given a limit of 10, and requests that fill it without any queueing
    AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 10, 1.5);
    probe(limit, 20 * MS);
    // When 20 windows of 20 ms requests end, 10 in flight
    feed(limit, 20, 20 * MS, 10);
    // Then the limit has grown, a step of about a fifth of its square root per window
    assertThat(limit.limit()).isBetween(20, 40);
    assertThat(limit.baselineNanos()).isEqualTo(20 * MS);
  }

  @Test
  void doesNotGrowWhenTheTrafficLeavesMostOfTheLimitUnused() {
    // Given a limit of 40 that the traffic never half fills
    AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 40, 1.5);
    probe(limit, 20 * MS);
    // When many windows of fast requests end, 5 in flight
    feed(limit, 50, 20 * MS, 5);
    // Then nothing tested the limit, so it stays where it was
    assertThat(limit.limit()).isEqualTo(40);
  }

  @Test
  void shrinksWhenLatencyRisesBeyondTheToleranceButNeverBelowTheFloor() {
    // Given a limit of 100 whose baseline is 20 ms, and a floor of 80
    AdaptiveLimit limit = new AdaptiveLimit(80, 1000, 100, 1.5);
    probe(limit, 20 * MS);
    int measured = limit.limit();
    // When one window takes 60 ms, three times the baseline (twice the tolerance)
    feed(limit, 1, 60 * MS, 100);
    // Then the limit moves a fifth of the way to half of itself
    assertThat(limit.limit()).isEqualTo((int) (measured - measured * 0.5 * 0.2));
    // And when requests stay that slow, it stops at the floor, where it measures the baseline again
    feed(limit, 2, 60 * MS, 100);
    assertThat(limit.learnedLimit()).isEqualTo(80);
    assertThat(limit.probing()).isTrue();
  }

  @Test
  void aBackendThatSlowsDownUnderLightLoadIsMeasuredAgainOnceTheLimitHalved() {
    // Given a limit of 40 whose baseline is 20 ms, with 5 requests in flight
    AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 40, 1.5);
    probe(limit, 20 * MS);
    // When every request takes 40 ms, however few are in flight
    int windows = 0;
    while (!limit.probing()) {
      feed(limit, 1, 40 * MS, 5);
      windows++;
    }
    // Then the limit shrank, 5% a window (a fifth of the way to 1.5 times 20 over 40), and once it
    // had halved, after 14 windows, a probe began
    assertThat(windows).isEqualTo(14);
    assertThat(limit.learnedLimit()).isEqualTo(19);
    // And the probe measures the slower baseline, from which the limit no longer shrinks
    feed(limit, 3, 40 * MS, 3);
    assertThat(limit.probing()).isFalse();
    assertThat(limit.baselineNanos()).isEqualTo(40 * MS);
    feed(limit, 50, 40 * MS, 20);
    assertThat(limit.learnedLimit()).isGreaterThan(19);
  }

  @Test
  void latencyWithinTheToleranceDoesNotShrinkTheLimit() {
    // Given a limit whose baseline is 20 ms
    AdaptiveLimit limit = new AdaptiveLimit(1, 50, 50, 1.5);
    probe(limit, 20 * MS);
    // When windows take 29 ms, within 1.5 times the baseline
    feed(limit, 20, 29 * MS, 50);
    // Then the limit stays at its ceiling
    assertThat(limit.limit()).isEqualTo(50);
  }

  @Test
  void aSlowTrickleStillClosesAWindowAfterASecond() {
    // Given a limit with its baseline, then a request taking three times as long
    AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 100, 1.5);
    probe(limit, 20 * MS);
    int measured = limit.limit();
    limit.sample(60 * MS, 100, clock.advance(600 * MS));
    assertThat(limit.limit()).isEqualTo(measured);
    // When the next one ends a second after the window opened
    limit.sample(60 * MS, 100, clock.advance(1_000 * MS));
    // Then the window closed on two requests, and the limit shrank
    assertThat(limit.limit()).isLessThan(measured);
    assertThat(limit.lastAverageNanos()).isEqualTo(60 * MS);
  }

  @Test
  void badSettingsAreNamed() {
    assertThatThrownBy(() -> new AdaptiveLimit(0, 10, 5, 1.5)).hasMessageContaining("floor 0");
    assertThatThrownBy(() -> new AdaptiveLimit(10, 5, 5, 1.5)).hasMessageContaining("ceiling 5");
    assertThatThrownBy(() -> new AdaptiveLimit(1, 10, 11, 1.5)).hasMessageContaining("was 11");
    assertThatThrownBy(() -> new AdaptiveLimit(1, 10, 5, 1.0)).hasMessageContaining("was 1.0");
  }

  /**
   * A backend of {@code slots} concurrent slots at 20 ms each (or {@code serviceNanos}), queueing
   * beyond them, behind the controller, offered requests open-loop at a fixed rate: a
   * discrete-event model on the manual clock.
   */
  private static final class Backend {
    final AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 20, 1.5);
    // times compared as differences: the clock starts near Long.MAX_VALUE and wraps
    final PriorityQueue<long[]> running =
        new PriorityQueue<>((a, b) -> Long.compare(a[0] - b[0], 0));
    final PriorityQueue<Long> slotsFreeAt = new PriorityQueue<>((a, b) -> Long.compare(a - b, 0));
    long now;
    int inFlight;
    long served;
    long latencySum;
    long rejected;
    long serviceNanos = 20 * MS;
    int lowest; // the lowest limit learned in the last run
    int probes; // how many probes began in the last run

    Backend(long start, int slots) {
      now = start;
      resize(slots);
    }

    /** The backend now has {@code slots} slots, free from now. */
    void resize(int slots) {
      slotsFreeAt.clear();
      for (int i = 0; i < slots; i++) {
        slotsFreeAt.add(now);
      }
    }

    /** Offers {@code perSecond} requests a second for {@code seconds}. */
    void run(int perSecond, int seconds) {
      served = 0;
      latencySum = 0;
      rejected = 0;
      lowest = Integer.MAX_VALUE;
      probes = 0;
      long gap = 1_000_000_000L / perSecond;
      for (long i = 0; i < (long) perSecond * seconds; i++) {
        now += gap;
        endUpTo(now);
        if (inFlight >= limit.limit()) {
          rejected++;
          continue;
        }
        inFlight++;
        long free = slotsFreeAt.poll();
        long start = free - now > 0 ? free : now;
        long end = start + serviceNanos;
        slotsFreeAt.add(end);
        running.add(new long[] {end, now});
      }
    }

    private void endUpTo(long time) {
      while (!running.isEmpty() && running.peek()[0] - time <= 0) {
        long[] done = running.poll();
        long latency = done[0] - done[1];
        boolean probing = limit.probing();
        limit.sample(latency, inFlight, done[0]);
        probes += !probing && limit.probing() ? 1 : 0;
        lowest = Math.min(lowest, limit.learnedLimit());
        inFlight--;
        served++;
        latencySum += latency;
      }
    }

    double averageMillis() {
      return latencySum / (double) served / MS;
    }
  }

  @Test
  void findsTheCapacityOfABackendAtThreeTimesItsLoadAndFollowsItWhenItChanges() {
    // Given a backend of 8 slots at 20 ms (400 requests a second), offered 1200 a second
    Backend backend = new Backend(ManualClock.NEAR_MAX, 8);
    backend.run(1200, 5);
    // Then the limit settles a little above the 8 slots, serving nearly all 400 a second, each
    // request within the tolerance of its 20 ms
    backend.run(1200, 5);
    assertThat(backend.limit.limit()).isBetween(8, 14);
    assertThat(backend.served).isGreaterThan(5 * 400 * 95 / 100);
    assertThat(backend.averageMillis()).isLessThan(20 * 1.5 * 1.1);

    // When the backend loses half its slots, the limit follows within 5 s
    backend.resize(4);
    backend.run(1200, 5);
    assertThat(backend.limit.limit()).isBetween(4, 7);
    backend.run(1200, 2);
    assertThat(backend.served).isGreaterThan(2 * 200 * 90 / 100);

    // And when it grows to 16, the limit grows with it within 5 s
    backend.resize(16);
    backend.run(1200, 5);
    assertThat(backend.limit.limit()).isBetween(16, 28);
    backend.run(1200, 2);
    assertThat(backend.served).isGreaterThan(2 * 800 * 90 / 100);
  }

  @Test
  void aSlowerBackendIsToldFromQueueingAndTheLimitSettlesAtItsNewCapacity() {
    // Given a backend of 8 slots at 20 ms (400 requests a second) at three times its capacity
    Backend backend = new Backend(ManualClock.NEAR_MAX, 8);
    backend.run(1200, 10);
    assertThat(backend.limit.limit()).isBetween(8, 14);

    // When each request takes 40 ms for 10 s, with no more queueing: 200 a second
    backend.serviceNanos = 40 * MS;
    backend.run(1200, 2);
    // Then the limit does not fall far below the 8 slots: shrinking did not help, so a probe
    // measured the slower baseline at once
    assertThat(backend.lowest).isGreaterThanOrEqualTo(5);
    assertThat(backend.probes).isEqualTo(1);
    assertThat(backend.limit.baselineNanos()).isEqualTo(40 * MS);
    // And through the rest of the slow phase it stays near the slower backend's capacity, serving
    // nearly all of its 200 a second within the tolerance of its 40 ms
    backend.run(1200, 8);
    assertThat(backend.lowest).isGreaterThanOrEqualTo(8);
    assertThat(backend.limit.limit()).isBetween(8, 14);
    assertThat(backend.probes).isZero();
    assertThat(backend.served).isGreaterThan(8 * 200 * 95 / 100);
    assertThat(backend.averageMillis()).isLessThan(40 * 1.5 * 1.1);

    // And when the backend is fast again, a probe measures its baseline again at once
    backend.serviceNanos = 20 * MS;
    backend.run(1200, 2);
    assertThat(backend.probes).isEqualTo(1);
    assertThat(backend.limit.baselineNanos()).isEqualTo(20 * MS);
    assertThat(backend.served).isGreaterThan(2 * 400 * 90 / 100);
    backend.run(1200, 5);
    assertThat(backend.limit.limit()).isBetween(8, 14);
  }

  @Test
  void atSteadyOverloadTheOnlyProbesAreTheOnesAnUnconfirmedBaselineCalls() {
    // Given a backend of 8 slots at 20 ms at three times its capacity, settled
    Backend backend = new Backend(ManualClock.NEAR_MAX, 8);
    backend.run(1200, 10);
    // When the overload lasts ten minutes
    backend.run(1200, 600);
    // Then a probe ran every five minutes, when the baseline was that old, and no other
    assertThat(backend.probes).isEqualTo(2);
    assertThat(backend.served).isGreaterThan(600 * 400 * 99 / 100);
  }
}
