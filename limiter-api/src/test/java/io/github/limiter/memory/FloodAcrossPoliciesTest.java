package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.memory.InMemoryStore.Overflow;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression (issue 17, blocker 2): {@code max-keys} is shared by every policy, and eviction
 * compared the permits a key would regain in absolute numbers. Once each flood key of an API policy
 * (1000 an hour) had used more than a login policy's whole capacity (5 a minute), the exhausted
 * login key was the one evicted, and the next login was admitted. A flood of keys that send 1, 6 or
 * the API's whole capacity of requests each must leave another policy's exhausted key exhausted.
 */
class FloodAcrossPoliciesTest {

  static final Policy LOGIN = Policy.tokenBucket("login", Limit.of(5, Duration.ofMinutes(1)));
  static final Policy API = Policy.fixedWindow("api", Limit.of(1000, Duration.ofHours(1)));
  static final int MAX_KEYS = 200;

  static InMemoryStore exhaustedLogin(ManualClock clock) {
    InMemoryStore store =
        InMemoryStore.builder().clock(clock).maxKeys(MAX_KEYS).overflow(Overflow.EVICT).build();
    for (int i = 0; i < 5; i++) {
      assertThat(store.decide(LOGIN, "victim", 1).isAllowed()).isTrue();
    }
    assertThat(store.decide(LOGIN, "victim", 1).outcome()).isEqualTo(Outcome.LIMITED);
    return store;
  }

  @ParameterizedTest(name = "{0} requests per flood key")
  @ValueSource(ints = {1, 6, 1000})
  void aKeyFloodInOnePolicyCannotResetAnExhaustedKeyOfAnother(int requestsPerKey) {
    // Given a store of 200 keys holding an exhausted login key
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = exhaustedLogin(clock);

    // When ten times as many API keys as the store holds send requestsPerKey requests each
    for (int k = 0; k < 10 * MAX_KEYS; k++) {
      clock.advance(1_000);
      for (int r = 0; r < requestsPerKey; r++) {
        assertThat(store.decide(API, "flood-" + k, 1).isAllowed()).isTrue();
      }
      // Then the login key stays exhausted all along
      if (k % 50 == 0) {
        assertThat(store.decide(LOGIN, "victim", 1).outcome())
            .as("login after %s flood keys", k)
            .isEqualTo(Outcome.LIMITED);
      }
    }
    assertThat(store.decide(LOGIN, "victim", 1).outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(store.size()).isLessThanOrEqualTo(MAX_KEYS);
  }

  @ParameterizedTest(name = "{0} requests per flood key")
  @ValueSource(ints = {1, 6, 1000})
  void aConcurrentKeyFloodInOnePolicyCannotResetAnExhaustedKeyOfAnother(int requestsPerKey)
      throws Exception {
    // Given a store of 200 keys holding an exhausted login key, and 4 threads flooding API keys
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = exhaustedLogin(clock);
    int threads = 4;
    int keysPerThread = 5 * MAX_KEYS / threads * (requestsPerKey > 6 ? 1 : 4);
    AtomicLong unavailable = new AtomicLong();
    AtomicLong loginAdmitted = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> flooders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      flooders.add(
          new Thread(
              () -> {
                await(start);
                for (int k = 0; k < keysPerThread; k++) {
                  for (int r = 0; r < requestsPerKey; r++) {
                    if (store.decide(API, id + "-" + k, 1).outcome() == Outcome.UNAVAILABLE) {
                      unavailable.incrementAndGet();
                    }
                  }
                }
              }));
    }
    flooders.forEach(Thread::start);

    // When they flood while the login key keeps asking
    start.countDown();
    while (flooders.stream().anyMatch(Thread::isAlive)) {
      if (store.decide(LOGIN, "victim", 1).isAllowed()) {
        loginAdmitted.incrementAndGet();
      }
    }
    for (Thread flooder : flooders) {
      flooder.join();
    }

    // Then the login key was never admitted and stays exhausted; every flood key found room
    assertThat(loginAdmitted.get()).as("logins admitted during the flood").isZero();
    assertThat(store.decide(LOGIN, "victim", 1).outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(unavailable.get()).as("flood requests answered unavailable under evict").isZero();
    assertThat(store.size()).isLessThanOrEqualTo(MAX_KEYS + threads + 1);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
