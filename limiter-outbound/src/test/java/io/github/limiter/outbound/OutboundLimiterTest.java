package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waits, blocks and budgets of one outbound policy, on a manual clock: nothing sleeps. */
class OutboundLimiterTest {

  private static final long MS = 1_000_000L;
  private static final URI PARTNER = URI.create("https://partner.example/v1/pay");
  private static final Policy FIVE_PER_SECOND =
      Policy.tokenBucket("partner", Limit.bucket(5, Duration.ofSeconds(1), 5));

  private final ManualClock clock = ManualClock.nearMaxValue();
  private final List<Long> slept = new ArrayList<>();
  private final Sleeper sleeper =
      nanos -> {
        slept.add(nanos);
        clock.advance(nanos);
      };
  private final InMemoryStore store = InMemoryStore.builder().clock(clock).build();
  private final CountingRecorder recorder = new CountingRecorder();

  @AfterEach
  void close() {
    store.close();
  }

  private OutboundLimiter limiter(Policy policy, Duration maxWait, boolean proceed) {
    return new OutboundLimiter(
        new OutboundConfig(
            policy,
            1,
            List.of(),
            null,
            maxWait,
            proceed,
            Duration.ofMinutes(5),
            OutboundConfig.Retry.NONE,
            Duration.ofMinutes(5)),
        store,
        recorder,
        null,
        clock,
        sleeper,
        Clock.fixed(Instant.parse("2026-12-04T10:00:00Z"), ZoneOffset.UTC),
        new Random(1),
        new OverdueCalls());
  }

  private static void spend(OutboundLimiter limiter, int calls) {
    for (int i = 0; i < calls; i++) {
      limiter.begin(PARTNER, null).end(200, name -> null);
    }
  }

  @Test
  void callsWithinTheBudgetGoOutAtOnce() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ZERO, false);

    spend(partner, 5);

    assertThat(slept).isEmpty();
    assertThat(recorder.count(Recorder.OutboundEvent.CALLED)).isEqualTo(5);
  }

  @Test
  void aSpentBudgetWithoutMaxWaitFailsAtOnceWithTheWait() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ZERO, false);
    spend(partner, 5);

    assertThatThrownBy(() -> partner.begin(PARTNER, null))
        .isInstanceOfSatisfying(
            OutboundLimitException.class,
            e -> {
              assertThat(e.retryAfter()).contains(Duration.ofMillis(200));
              assertThat(e.isUpstreamBlock()).isFalse();
              assertThat(e.policy()).isEqualTo("partner");
              assertThat(e.upstream()).isEqualTo("https://partner.example:443");
            });
    assertThat(slept).isEmpty();
    assertThat(recorder.count(Recorder.OutboundEvent.FAILED)).isEqualTo(1);
  }

  @Test
  void aCallWaitsForTheBudgetWithinMaxWait() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ofMillis(500), false);
    spend(partner, 5);

    partner.begin(PARTNER, null);

    assertThat(slept).containsExactly(200 * MS);
    assertThat(recorder.count(Recorder.OutboundEvent.WAITED)).isEqualTo(1);
  }

  @Test
  void aWaitLongerThanMaxWaitFailsWithoutWaiting() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ofMillis(150), false);
    spend(partner, 5);

    assertThatThrownBy(() -> partner.begin(PARTNER, null))
        .isInstanceOf(OutboundLimitException.class);
    assertThat(slept).isEmpty();
  }

  @Test
  void proceedWaitsMaxWaitAndNoLongerThenCallsAnyway() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ofMillis(150), true);
    spend(partner, 5);

    OutboundCall call = partner.begin(PARTNER, null);

    assertThat(call.upstream()).isEqualTo("https://partner.example:443");
    assertThat(slept).containsExactly(150 * MS);
    assertThat(slept.stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo(150 * MS);
  }

  @Test
  void manyWaitersNeverWaitLongerThanMaxWaitInAll() {
    Policy onePerSecond = Policy.fixedWindow("partner", Limit.of(1, Duration.ofSeconds(1)));
    OutboundLimiter partner = limiter(onePerSecond, Duration.ofMillis(2500), true);

    for (int i = 0; i < 10; i++) {
      slept.clear();
      partner.begin(PARTNER, null);
      assertThat(slept.stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo(2500 * MS);
    }
  }

  @Test
  void anUpstreamsRetryAfterBlocksEveryLimiterOverTheStore() {
    OutboundLimiter node1 = limiter(FIVE_PER_SECOND, Duration.ZERO, false);
    OutboundLimiter node2 = limiter(FIVE_PER_SECOND, Duration.ZERO, false);

    // When node 1 is refused with Retry-After: 2
    Duration asked = node1.begin(PARTNER, null).end(429, Map.of("Retry-After", "2")::get);

    // Then node 2 does not call for 2 s, though its budget is not spent
    assertThat(asked).isEqualTo(Duration.ofSeconds(2));
    assertThatThrownBy(() -> node2.begin(PARTNER, null))
        .isInstanceOfSatisfying(
            OutboundLimitException.class,
            e -> {
              assertThat(e.isUpstreamBlock()).isTrue();
              assertThat(e.retryAfter()).contains(Duration.ofSeconds(2));
            });
    clock.advance(Duration.ofMillis(1999));
    assertThatThrownBy(() -> node2.begin(PARTNER, null)).isInstanceOf(OutboundLimitException.class);
    clock.advance(Duration.ofMillis(1));
    node2.begin(PARTNER, null);
    // Other upstreams are not blocked
    node2.begin(URI.create("https://other.example/"), null);
    assertThat(recorder.count(Recorder.OutboundEvent.REFUSED)).isEqualTo(1);
    assertThat(recorder.count(Recorder.OutboundEvent.BLOCKED)).isEqualTo(1);
  }

  @Test
  void aCallWaitsOutABlockWithinMaxWaitButNeverProceedsThroughOne() {
    OutboundLimiter waiting = limiter(FIVE_PER_SECOND, Duration.ofSeconds(3), false);
    OutboundLimiter proceeding = limiter(FIVE_PER_SECOND, Duration.ofSeconds(1), true);
    waiting.begin(PARTNER, null).end(503, Map.of("Retry-After", "2")::get);

    assertThatThrownBy(() -> proceeding.begin(PARTNER, null))
        .isInstanceOfSatisfying(
            OutboundLimitException.class, e -> assertThat(e.isUpstreamBlock()).isTrue());
    waiting.begin(PARTNER, null);
    assertThat(slept).containsExactly(2_000 * MS);
  }

  @Test
  void nothingRemainingBlocksUntilTheResetBeforeAnyRefusal() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ZERO, false);

    partner.begin(PARTNER, null).end(200, Map.of("RateLimit", "\"default\";r=0;t=3")::get);

    assertThatThrownBy(() -> partner.begin(PARTNER, null))
        .isInstanceOf(OutboundLimitException.class);
    clock.advance(Duration.ofSeconds(3));
    partner.begin(PARTNER, null);
  }

  @Test
  void aMalformedRetryAfterCausesNoBlockAndNoError() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ZERO, false);

    Duration asked = partner.begin(PARTNER, null).end(429, Map.of("Retry-After", "later")::get);

    assertThat(asked).isZero();
    partner.begin(PARTNER, null);
  }

  @Test
  void eachCredentialHasItsOwnBudgetAndNoSecretIsKept() {
    OutboundLimiter partner = limiter(FIVE_PER_SECOND, Duration.ZERO, false);
    for (int i = 0; i < 5; i++) {
      partner.begin(PARTNER, "Bearer key-a");
    }

    assertThatThrownBy(() -> partner.begin(PARTNER, "Bearer key-a"))
        .isInstanceOf(OutboundLimitException.class);
    partner.begin(PARTNER, "Bearer key-b");
    assertThat(OutboundLimiter.key("https://partner.example:443", "Bearer key-a"))
        .startsWith("https://partner.example:443 ")
        .doesNotContain("key-a")
        .isNotEqualTo(OutboundLimiter.key("https://partner.example:443", "Bearer key-b"));
    assertThat(OutboundLimiter.key("https://" + "h".repeat(300) + ":443", null))
        .startsWith("sha256:")
        .hasSizeLessThanOrEqualTo(128);
  }

  @Test
  void aConcurrencyLimitHoldsAPermitUntilTheCallEnds() {
    Policy oneInFlight = Policy.concurrency("partner", 1, Duration.ofMillis(50));
    OutboundLimiter partner = limiter(oneInFlight, Duration.ZERO, false);

    OutboundCall first = partner.begin(PARTNER, null);
    assertThatThrownBy(() -> partner.begin(PARTNER, null))
        .isInstanceOf(OutboundLimitException.class);
    first.end(200, name -> null);
    OutboundCall second = partner.begin(PARTNER, null);
    second.abandon();
    second.abandon(); // once only
    partner.begin(PARTNER, null);
    assertThatThrownBy(() -> partner.begin(PARTNER, null))
        .isInstanceOf(OutboundLimitException.class);
  }

  @Test
  void aCallThatCostsMoreThanTheLimitNeverGoesOutNorWaits() {
    OutboundLimiter partner =
        new OutboundLimiter(
            new OutboundConfig(
                FIVE_PER_SECOND,
                6,
                List.of(),
                null,
                Duration.ofSeconds(10),
                true,
                Duration.ofMinutes(5),
                OutboundConfig.Retry.NONE,
                Duration.ofMinutes(5)),
            store,
            recorder,
            null,
            clock,
            sleeper,
            Clock.systemUTC(),
            new Random(1),
            new OverdueCalls());

    assertThatThrownBy(() -> partner.begin(PARTNER, null))
        .isInstanceOfSatisfying(
            OutboundLimitException.class, e -> assertThat(e.retryAfter()).isEmpty());
    assertThat(slept).isEmpty();
  }

  @Test
  void anInterruptWhileWaitingEndsTheWaitAndStaysSet() {
    OutboundLimiter partner =
        new OutboundLimiter(
            new OutboundConfig(
                FIVE_PER_SECOND,
                1,
                List.of(),
                null,
                Duration.ofSeconds(1),
                false,
                Duration.ofMinutes(5),
                OutboundConfig.Retry.NONE,
                Duration.ofMinutes(5)),
            store,
            recorder,
            null,
            clock,
            nanos -> {
              throw new InterruptedException();
            },
            Clock.systemUTC(),
            new Random(1),
            new OverdueCalls());
    spend(partner, 5);

    try {
      assertThatThrownBy(() -> partner.begin(PARTNER, null))
          .isInstanceOf(OutboundLimitException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  /** Counts the outbound events of policy partner. */
  static final class CountingRecorder implements Recorder {
    private final Map<Recorder.OutboundEvent, Integer> counts =
        new java.util.concurrent.ConcurrentHashMap<>();

    int count(Recorder.OutboundEvent event) {
      return counts.getOrDefault(event, 0);
    }

    @Override
    public void outbound(String policy, Recorder.OutboundEvent event) {
      assertThat(policy).isEqualTo("partner");
      counts.merge(event, 1, Integer::sum);
    }

    @Override
    public void decision(String policy, Verdict outcome, boolean verified) {}

    @Override
    public void nearLimit(String policy) {}

    @Override
    public void shapingDelay(String policy, long nanos) {}

    @Override
    public void storeDuration(String store, long nanos) {}

    @Override
    public void watch(io.github.limiter.internal.metrics.StoreGauges store) {}
  }
}
