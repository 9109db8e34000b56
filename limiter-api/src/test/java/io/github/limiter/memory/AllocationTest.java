package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.tck.ManualClock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admit and reject paths of the one-long algorithms allocate nothing but the Decision. A
 * behaviour check on allocated bytes, measured per thread, not a timing test.
 */
class AllocationTest {

  static final int WARM_UP = 200_000;
  static final int MEASURED = 100_000;

  /** Room for the measurement's own noise: a few bytes per decision at most. */
  static final long SLACK_PER_DECISION = 8;

  static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  static final Decision[] SINK = new Decision[1024];
  static final Limit LIMIT = Limit.of(10, Duration.ofSeconds(1));

  static long decisionBytes;

  @BeforeAll
  static void measureOneDecision() {
    Supplier<Decision> make = () -> Decision.allowed("p", LIMIT, 1, 2, 3);
    bytesPerCall(make, WARM_UP);
    decisionBytes = bytesPerCall(make, MEASURED);
    assertThat(decisionBytes).as("a Decision is a small object").isBetween(24L, 96L);
  }

  /** Bytes this thread allocates per call of {@code call}, over {@code calls} calls. */
  static long bytesPerCall(Supplier<Decision> call, int calls) {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < calls; i++) {
      SINK[i & 1023] = call.get();
    }
    long after = THREADS.getCurrentThreadAllocatedBytes();
    return (after - before) / calls;
  }

  static Stream<Arguments> paths() {
    // Capacities of a billion keep admitting at a clock that stands still; capacity 1 keeps
    // rejecting.
    Limit roomy = Limit.of(1_000_000_000, Duration.ofSeconds(1));
    Limit tiny = Limit.of(1, Duration.ofDays(1));
    return Stream.of(
        Arguments.of("token-bucket admit", Policy.tokenBucket("tb", roomy), true),
        Arguments.of("token-bucket reject", Policy.tokenBucket("tb", tiny), false),
        Arguments.of("leaky-bucket admit", Policy.leakyBucket("lb", roomy), true),
        Arguments.of("leaky-bucket reject", Policy.leakyBucket("lb", tiny), false),
        Arguments.of("fixed-window admit", Policy.fixedWindow("fw", roomy), true),
        Arguments.of("fixed-window reject", Policy.fixedWindow("fw", tiny), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("paths")
  void decidingAllocatesNothingButTheDecision(String path, Policy policy, boolean admits) {
    // Given a warm store and a key on the path under test
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    Limiter limiter = Limiter.of(store);
    store.decide(policy, "key", 1);
    assertThat(store.decide(policy, "key", 1).isAllowed()).isEqualTo(admits);
    bytesPerCall(() -> store.decide(policy, "key", 1), WARM_UP);
    bytesPerCall(() -> limiter.decide(policy, "key", 1), WARM_UP);
    PolicyLimiter bound = limiter.bind(policy);
    bytesPerCall(() -> bound.decide("key"), WARM_UP);

    // When 100 000 decisions are measured, on the store, through the limiter, and bound
    long direct = bytesPerCall(() -> store.decide(policy, "key", 1), MEASURED);
    long viaLimiter = bytesPerCall(() -> limiter.decide(policy, "key", 1), MEASURED);
    long viaBound = bytesPerCall(() -> bound.decide("key"), MEASURED);

    // Then each allocated at most one Decision
    assertThat(store.decide(policy, "key", 1).isAllowed()).isEqualTo(admits);
    assertThat(direct)
        .as("%s: bytes per decision (a Decision is %s)", path, decisionBytes)
        .isLessThanOrEqualTo(decisionBytes + SLACK_PER_DECISION);
    assertThat(viaLimiter)
        .as("%s through Limiter: bytes per decision", path)
        .isLessThanOrEqualTo(decisionBytes + SLACK_PER_DECISION);
    assertThat(viaBound)
        .as("%s through a bound PolicyLimiter: bytes per decision", path)
        .isLessThanOrEqualTo(decisionBytes + SLACK_PER_DECISION);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("paths")
  void tryAcquireAllocatesNothing(String path, Policy policy, boolean admits) {
    // Given a warm store and a key on the path under test
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    Limiter limiter = Limiter.of(store);
    store.tryAcquire(policy, "key", 1);
    assertThat(store.tryAcquire(policy, "key", 1) == 0).isEqualTo(admits);
    long[] sink = new long[1];
    PolicyLimiter bound = limiter.bind(policy);
    Runnable call = () -> sink[0] += limiter.tryAcquire(policy, "key", 1) + bound.tryAcquire("key");

    // When 100 000 calls are measured, after the JIT has had its warm-up
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 10 && least > 0; round++) {
      long before = THREADS.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < WARM_UP; i++) {
        call.run();
      }
      least = Math.min(least, (THREADS.getCurrentThreadAllocatedBytes() - before) / WARM_UP);
    }

    // Then they allocated nothing at all
    assertThat(least).as("%s: bytes per tryAcquire", path).isZero();
  }
}
