package io.github.limiter.internal.algorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Several limits in one policy apply all-or-nothing. */
class PolicyFunctionTest {

  static final long S = Duration.ofSeconds(1).toNanos();
  static final long H = Duration.ofHours(1).toNanos();
  static final Limit TEN_PER_SECOND = Limit.of(10, Duration.ofSeconds(1));
  static final Limit FIFTEEN_PER_HOUR = Limit.of(15, Duration.ofHours(1));

  static List<Long> origins() {
    // Windows align to floorDiv(now, W), so near Long.MAX_VALUE start two whole hours before the
    // last hour boundary: the hour windows of the test must not straddle the wrap.
    return List.of(
        hourStart(Long.MAX_VALUE) - 2 * H,
        ManualClock.JUST_BELOW_ZERO,
        ManualClock.NEGATIVE,
        -4_321_987_654_321_123L);
  }

  static long hourStart(long t) {
    return t - Math.floorMod(t, H);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void aRequestRejectedByOneLimitChargesNone(long origin) {
    // Given 10/s and 15/h, 10 admitted in the first second of an hour
    Policy policy = Policy.fixedWindow("api", TEN_PER_SECOND, FIFTEEN_PER_HOUR);
    long hour = hourStart(origin);
    PureDriver key = new PureDriver(policy, hour);
    assertThat(key.admitted(hour, 10)).isEqualTo(10);

    // When 100 more arrive in that second (the 10/s rejects them), and then the next second opens
    Decision perSecond = key.decide(hour + 1);
    assertThat(key.admitted(hour + 2, 100)).isZero();
    int nextSecond = key.admitted(hour + S, 10);

    // Then the rejections charged neither limit: the hour still had exactly 5 left
    assertThat(perSecond.limit()).isEqualTo(TEN_PER_SECOND);
    assertThat(perSecond.retryAfterNanos()).isEqualTo(S - 1);
    assertThat(nextSecond).isEqualTo(5);
    Decision perHour = key.decide(hour + 2 * S);
    assertThat(perHour.limit()).isEqualTo(FIFTEEN_PER_HOUR);
    assertThat(perHour.retryAfterNanos()).isEqualTo(H - 2 * S);
  }

  @Test
  void anAdmissionReportsTheLimitWithTheFewestRemainingPermits() {
    // Given 10/s and 15/h, 8 admitted in the first second
    Policy policy = Policy.fixedWindow("api", TEN_PER_SECOND, FIFTEEN_PER_HOUR);
    PureDriver key = new PureDriver(policy, 0);
    Decision first = key.decide(0);
    key.admitted(0, 7);

    // When the next seconds see 1, and then 5 more
    Decision ninth = key.decide(S);
    Decision tenth = key.decide(2 * S);

    // Then the per-second limit binds at first, the hour once it has fewer left
    assertThat(first.limit()).isEqualTo(TEN_PER_SECOND);
    assertThat(first.remaining()).isEqualTo(9);
    assertThat(first.resetAfterNanos()).isEqualTo(S);
    assertThat(ninth.limit()).isEqualTo(FIFTEEN_PER_HOUR);
    assertThat(ninth.remaining()).isEqualTo(6);
    assertThat(tenth.remaining()).isEqualTo(5);
  }

  @Test
  void aTokenBucketPairOfTenPerSecondAndAThousandPerHourIsAllOrNothing() {
    // Given 10/s burst 10 and 1000/h burst 1000, both full
    Policy policy = Policy.tokenBucket("api", TEN_PER_SECOND, Limit.of(1000, Duration.ofHours(1)));
    PureDriver key = new PureDriver(policy, 0);

    // When 10 pass, 50 more are rejected by the 10/s, and then 1 s passes
    assertThat(key.admitted(0, 10)).isEqualTo(10);
    assertThat(key.admitted(0, 50)).isZero();
    Decision later = key.decide(S);

    // Then the 1000/h was charged for the 10 admitted and the one now, not for the 50
    assertThat(later.isAllowed()).isTrue();
    long[] copy = key.state.clone();
    Decision probe = key.function.admit(copy, S, 1);
    assertThat(probe.remaining()).isEqualTo(8);
    LongStateFunction hour =
        (LongStateFunction)
            PolicyFunction.function(Algorithm.TOKEN_BUCKET, Limit.of(1000, Duration.ofHours(1)));
    assertThat(hour.remaining(key.state[1], S)).isEqualTo(1000 - 11);
  }

  @Test
  void theRetryOfAMultiLimitRejectionIsTheLongestWaitAndTheCostliestRequestCanNeverPass() {
    // Given 2/s and 3/h, both nearly spent
    Policy policy =
        Policy.slidingWindowLog(
            "api", Limit.of(2, Duration.ofSeconds(1)), Limit.of(3, Duration.ofHours(1)));
    PureDriver key = new PureDriver(policy, 0);
    key.admitted(0, 2);
    key.admitted(S, 1);

    // When a request arrives while both are full
    Decision rejected = key.decide(S);
    Decision tooBig = key.decide(S, 3);

    // Then it waits for the hour; 3 permits exceed the 2/s forever
    assertThat(rejected.retryAfterNanos()).isEqualTo(H - S);
    assertThat(rejected.limit()).isEqualTo(Limit.of(3, Duration.ofHours(1)));
    assertThat(tooBig.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(tooBig.limit()).isEqualTo(Limit.of(2, Duration.ofSeconds(1)));
    assertThat(tooBig.retryAfter()).isEmpty();
  }

  @Test
  void onlySingleOneLongLimitsHaveTheOneLongForm() {
    assertThat(PolicyFunction.of(Policy.tokenBucket("a", TEN_PER_SECOND)).single())
        .isInstanceOf(TokenBucket.class);
    assertThat(PolicyFunction.of(Policy.leakyBucket("a", TEN_PER_SECOND)).single())
        .isInstanceOf(LeakyBucket.class);
    assertThat(PolicyFunction.of(Policy.fixedWindow("a", TEN_PER_SECOND)).single())
        .isInstanceOf(FixedWindow.class);
    assertThat(PolicyFunction.of(Policy.slidingWindowLog("a", TEN_PER_SECOND)).single()).isNull();
    assertThat(PolicyFunction.of(Policy.slidingWindowCounter("a", TEN_PER_SECOND)).single())
        .isNull();
    assertThat(
            PolicyFunction.of(Policy.tokenBucket("a", TEN_PER_SECOND, FIFTEEN_PER_HOUR)).single())
        .isNull();
    assertThat(
            PolicyFunction.of(Policy.fixedWindow("a", TEN_PER_SECOND, FIFTEEN_PER_HOUR))
                .stateSize())
        .isEqualTo(2);
    assertThat(PolicyFunction.of(Policy.slidingWindowLog("a", TEN_PER_SECOND)).stateSize())
        .isEqualTo(12);
  }

  @Test
  void aPolicyFunctionNeedsALimit() {
    assertThatThrownBy(() -> PolicyFunction.of("x", Algorithm.FIXED_WINDOW, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
