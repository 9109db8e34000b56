package io.github.limiter.internal.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The concurrency limit as a pure function: a count held, taken at admission, given back. */
class ConcurrencyTest {

  private static final long HINT = Duration.ofMillis(1500).toNanos();

  @ParameterizedTest
  @ValueSource(longs = {Long.MAX_VALUE - 600_000_000_000L, -1, -600_000_000_000L, 0})
  void admitsWhileHeldPlusPermitsIsAtMostNAndReleasesGiveThemBack(long now) {
    // Given at most 3 in flight, with a 1.5 s hint
    PolicyFunction f = PolicyFunction.of(Policy.concurrency("export", 3, Duration.ofNanos(HINT)));
    LongStateFunction c = f.single();
    long held = c.fresh(now);

    // When 2 then 1 are taken
    assertThat(c.retryAfter(held, now, 2)).isZero();
    held = c.admit(held, now, 2);
    assertThat(c.remaining(held, now)).isEqualTo(1);
    assertThat(c.retryAfter(held, now, 2)).isEqualTo(HINT);
    held = c.admit(held, now, 1);

    // Then a fourth waits the hint however much time passes, since nothing refills
    assertThat(c.retryAfter(held, now, 1)).isEqualTo(HINT);
    assertThat(c.retryAfter(held, now + Duration.ofDays(1).toNanos(), 1)).isEqualTo(HINT);
    Decision rejected = f.rejected(c, held, now, HINT);
    assertThat(rejected.outcome()).isEqualTo(Decision.Outcome.LIMITED);
    assertThat(rejected.retryAfterNanos()).isEqualTo(HINT);

    // And a held key is never fresh, so no store forgets it
    assertThat(c.resetAfter(held, now)).isPositive();

    // When one is released, one more passes; when all are, the key is fresh again
    held = c.refund(held, now, 1);
    assertThat(c.retryAfter(held, now, 1)).isZero();
    held = c.refund(held, now, 2);
    assertThat(c.resetAfter(held, now)).isZero();
    assertThat(c.remaining(held, now)).isEqualTo(3);

    // And a release of more than is held stops at nothing held
    assertThat(c.refund(held, now, 5)).isZero();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 7})
  void moreThanNAtOnceIsNeverAdmitted(long n) {
    LongStateFunction c =
        PolicyFunction.of(Policy.concurrency("p", n, Duration.ofSeconds(1))).single();
    assertThat(c.retryAfter(0, 0, n + 1)).isEqualTo(LimitFunction.NEVER);
    assertThat(c.retryAfter(0, 0, n)).isZero();
  }
}
