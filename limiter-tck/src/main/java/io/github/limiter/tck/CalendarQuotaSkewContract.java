package io.github.limiter.tck;

import static io.github.limiter.tck.Views.peek;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.tck.redis.Await;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of calendar quotas for a store shared by nodes that takes its time from a server
 * (Redis's {@code TIME}): the server's clock picks the period, whatever each node's wall clock
 * says, so a node whose clock is ahead or behind counts in the same period as the others, and no
 * count is lost at a boundary.
 *
 * <p>The server's clock cannot be set, so the tests place the boundary near the server's now: a
 * daily quota in a zone whose midnight falls a few seconds ahead, and a real wait until the server
 * passes it. Extend it and implement the three methods.
 */
public abstract class CalendarQuotaSkewContract {

  private static final Duration SKEW = Duration.ofSeconds(5);

  /** How far ahead of the server's now the boundary is placed: the margin of the steps before. */
  private static final Duration AHEAD = Duration.ofMillis(3_500);

  private static final AtomicInteger NAMES = new AtomicInteger();
  private final List<RateLimitStore> created = new ArrayList<>();

  /**
   * A new node of the store under test, on the shared server and in its time, that computes the
   * quotas' periods from {@code wallClock} (read at each decision).
   */
  protected abstract RateLimitStore createNode(Clock wallClock);

  /** The server's clock, now. */
  protected abstract Instant serverTime();

  /**
   * When the server forgets the state of {@code policy}'s limit at {@code index} (in the policy's
   * order) for {@code key}, on the server's clock.
   */
  protected abstract Instant forgetsAt(RateLimitStore node, Policy policy, String key, int index);

  @AfterEach
  void closeNodes() {
    created.forEach(RateLimitStore::close);
    created.clear();
  }

  /** A node whose wall clock is the server's plus {@code skew}. */
  private RateLimitStore node(Duration skew) {
    Duration offset = Duration.between(Instant.now(), serverTime()).plus(skew);
    RateLimitStore node = createNode(Clock.offset(Clock.systemUTC(), offset));
    created.add(node);
    return node;
  }

  /** A fixed-offset zone whose local midnight is {@code midnight} (a whole second). */
  private static ZoneOffset midnightAt(Instant midnight) {
    int offset = (int) -Math.floorMod(midnight.getEpochSecond(), 86_400L);
    return ZoneOffset.ofTotalSeconds(offset < -18 * 3_600 ? offset + 86_400 : offset);
  }

  private static Policy dailyQuota(String base, long permits, ZoneOffset zone) {
    Limit quota = Limit.parse(permits + "/day").inCalendar(zone, 1);
    return new Policy(
        base + "-" + NAMES.incrementAndGet(),
        Algorithm.TOKEN_BUCKET,
        List.of(Limit.bucket(100, Duration.ofSeconds(1), 200), quota),
        FailureMode.FAIL_CLOSED);
  }

  private static void refusedUntil(Decision decision, Limit quota, Duration atMost) {
    assertThat(decision.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(decision.limit()).isEqualTo(quota);
    assertThat(decision.retryAfter().orElseThrow()).isPositive().isLessThanOrEqualTo(atMost);
  }

  @Test
  void nodesFiveSecondsAheadAndBehindCountInTheServersDayAcrossMidnight() {
    // Given three nodes, and a daily quota of 3 whose midnight is 3.5 to 4.5 s ahead on the
    // server's clock
    RateLimitStore inStep = node(Duration.ZERO);
    RateLimitStore ahead = node(SKEW);
    RateLimitStore behind = node(SKEW.negated());
    Instant midnight = serverTime().plus(AHEAD).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    Policy policy = dailyQuota("skew", 3, midnightAt(midnight));
    Limit quota = policy.limits().get(1);

    // When a node in step with the server spends the quota
    for (long left = 2; left >= 0; left--) {
      assertThat(inStep.decide(policy, "k", 1).remaining()).isEqualTo(left);
    }
    assertThat(forgetsAt(inStep, policy, "k", 1)).isEqualTo(midnight);

    // Then a node 5 s ahead, past midnight on its own clock, is refused until the server's
    // midnight, and the day's count keeps its end
    Duration toMidnight = Duration.between(serverTime(), midnight);
    refusedUntil(ahead.decide(policy, "k", 1), quota, toMidnight);
    assertThat(forgetsAt(ahead, policy, "k", 1)).isEqualTo(midnight);
    Decision read = peek(ahead).peek(policy, "k");
    assertThat(read.limit()).isEqualTo(quota);
    assertThat(read.remaining()).isZero();
    assertThat(read.resetAfter()).isPositive().isLessThanOrEqualTo(toMidnight);
    // and so are the node in step and a node 5 s behind: the count of the day is not lost
    refusedUntil(inStep.decide(policy, "k", 1), quota, toMidnight);
    refusedUntil(behind.decide(policy, "k", 1), quota, toMidnight);
    assertThat(forgetsAt(inStep, policy, "k", 1)).isEqualTo(midnight);
    assertThat(serverTime())
        .as("the steps before midnight took place before it")
        .isBefore(midnight);

    // When the server passes midnight, while the node behind is still in the old day
    Await.until(
        "the server's clock passes " + midnight,
        AHEAD.plusSeconds(5),
        () -> !serverTime().isBefore(midnight));

    // Then the new day counts from zero, on every node, and ends at the next midnight
    assertThat(peek(behind).peek(policy, "k").remaining()).isEqualTo(3);
    assertThat(behind.decide(policy, "k", 1).remaining()).isEqualTo(2);
    assertThat(forgetsAt(behind, policy, "k", 1)).isEqualTo(midnight.plus(Duration.ofDays(1)));
    assertThat(ahead.decide(policy, "k", 1).remaining()).isEqualTo(1);
    assertThat(inStep.decide(policy, "k", 1).remaining()).isZero();
    Duration day = Duration.ofDays(1);
    refusedUntil(behind.decide(policy, "k", 1), quota, day);
    assertThat(behind.decide(policy, "k", 1).retryAfter().orElseThrow())
        .as("the node behind waits for the server's next midnight, not its own")
        .isGreaterThan(day.minus(SKEW));
    assertThat(serverTime())
        .as("the node behind was still in the old day on its own clock")
        .isBefore(midnight.plus(SKEW));
  }

  @Test
  void aNodeDaysOffCountsInTheServersDay() {
    // Given a daily quota of 3 whose midnight is 12 hours away on the server's clock, 1 spent
    Instant midnight = serverTime().plus(Duration.ofHours(12)).truncatedTo(ChronoUnit.SECONDS);
    Policy policy = dailyQuota("days-off", 3, midnightAt(midnight));
    Limit quota = policy.limits().get(1);
    RateLimitStore inStep = node(Duration.ZERO);
    RateLimitStore ahead = node(Duration.ofDays(3).plusHours(5));
    RateLimitStore behind = node(Duration.ofDays(-40));
    assertThat(inStep.decide(policy, "k", 1).remaining()).isEqualTo(2);

    // When nodes whose clocks are days off decide, charge and read
    assertThat(ahead.decide(policy, "k", 1).remaining()).isEqualTo(1);
    behind.adjust(policy, "k", 1);

    // Then they count in the server's day: the quota is spent until the server's midnight
    Duration toMidnight = Duration.between(serverTime(), midnight);
    refusedUntil(behind.decide(policy, "k", 1), quota, toMidnight);
    refusedUntil(ahead.decide(policy, "k", 1), quota, toMidnight);
    Decision read = peek(ahead).peek(policy, "k");
    assertThat(read.remaining()).isZero();
    assertThat(read.resetAfter())
        .isLessThanOrEqualTo(toMidnight)
        .isGreaterThan(Duration.ofHours(11));
    assertThat(forgetsAt(behind, policy, "k", 1)).isEqualTo(midnight);
  }
}
