package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Cases;
import io.github.limiter.Decision;
import io.github.limiter.Gen;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A concurrency policy in the in-memory store: held permits are counted, kept and given back. */
class InFlightLimitTest {

  record Case(long origin, long max, long seed) {}

  static Stream<Named<Case>> traces() {
    return Cases.random(
        4404,
        300,
        gen ->
            new Case(
                gen.oneOf(ManualClock.NEAR_MAX, -1L, 0L, 12345L),
                gen.between(1, 6),
                gen.anyLong()));
  }

  @ParameterizedTest
  @MethodSource("traces")
  void neverMoreThanNInFlightAndEveryReleaseLetsOneMoreIn(Case c) {
    // Given a store on a manual clock and random acquires and releases of 1 or 2 permits
    ManualClock clock = ManualClock.at(c.origin());
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    Policy policy = Policy.concurrency("export", c.max(), Duration.ofSeconds(2));
    Gen gen = new Gen(c.seed());
    Deque<Long> inFlight = new ArrayDeque<>();
    long held = 0;
    for (int step = 0; step < 200; step++) {
      clock.advance(gen.between(0, 5_000_000_000L));
      if (!inFlight.isEmpty() && gen.chance(0.4)) {
        long permits = inFlight.poll();
        store.refund(policy, "k", permits);
        held -= permits;
        continue;
      }
      long permits = gen.between(1, 2);
      Decision d = store.decide(policy, "k", permits);
      // Then it is admitted exactly when it fits, whatever the time, and a rejection says the hint
      if (permits > c.max()) {
        assertThat(d.neverPasses()).isTrue();
      } else if (held + permits <= c.max()) {
        assertThat(d.isAllowed()).isTrue();
        assertThat(d.remaining()).isEqualTo(c.max() - held - permits);
        inFlight.add(permits);
        held += permits;
      } else {
        assertThat(d.isAllowed()).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(Duration.ofSeconds(2).toNanos());
      }
    }
  }

  @Test
  void aHeldKeyIsNeitherReclaimedNorEvictedByAFloodOfOtherKeys() {
    // Given a store of 8 keys, one concurrency key holding its only permit
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = InMemoryStore.builder().clock(clock).maxKeys(8).build();
    Policy export = Policy.concurrency("export", 1, Duration.ofSeconds(1));
    Policy api = Policy.fixedWindow("api", io.github.limiter.Limit.of(5, Duration.ofMinutes(1)));
    assertThat(store.decide(export, "held", 1).isAllowed()).isTrue();

    // When an hour passes and a thousand new keys of both policies come, each held briefly
    clock.advance(Duration.ofHours(1).toNanos());
    for (int i = 0; i < 1000; i++) {
      store.decide(api, "flood" + i, 1);
      if (store.decide(export, "brief" + i, 1).isAllowed()) {
        store.refund(export, "brief" + i, 1);
      }
    }

    // Then the held key still holds its permit
    assertThat(store.decide(export, "held", 1).isAllowed()).isFalse();
    store.refund(export, "held", 1);
    assertThat(store.decide(export, "held", 1).isAllowed()).isTrue();
  }

  @Test
  void threadsThatAcquireAndReleaseNeverHoldMoreThanN() throws InterruptedException {
    // Given at most 3 in flight on one key, and 8 threads acquiring, holding and releasing
    InMemoryStore store = InMemoryStore.create();
    Policy policy = Policy.concurrency("export", 3, Duration.ofSeconds(1));
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger admitted = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < 20_000; i++) {
                  if (store.tryAcquire(policy, "k", 1) == 0) {
                    admitted.incrementAndGet();
                    most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    inFlight.decrementAndGet();
                    store.refund(policy, "k", 1);
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }

    // Then some were admitted, never more than 3 at once, and every permit came back
    assertThat(admitted.get()).isPositive();
    assertThat(most.get()).isLessThanOrEqualTo(3);
    for (int i = 0; i < 3; i++) {
      assertThat(store.tryAcquire(policy, "k", 1)).isZero();
    }
    assertThat(store.tryAcquire(policy, "k", 1)).isPositive();
  }
}
