package io.github.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision.Outcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DecisionTest {

  static final Limit LIMIT = Limit.of(10, Duration.ofSeconds(1));

  @Test
  void anAdmissionCarriesRemainingResetAndDelayAndNoRetry() {
    Decision d = Decision.allowed("api", LIMIT, 7, 2_500_000_000L, 300);

    assertThat(d.isAllowed()).isTrue();
    assertThat(d.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(d.policy()).isEqualTo("api");
    assertThat(d.limit()).isEqualTo(LIMIT);
    assertThat(d.remaining()).isEqualTo(7);
    assertThat(d.resetAfter()).isEqualTo(Duration.ofMillis(2500));
    assertThat(d.retryAfter()).contains(Duration.ZERO);
    assertThat(d.delay()).isEqualTo(Duration.ofNanos(300));
    assertThat(d.isVerified()).isTrue();
  }

  @Test
  void aLimitRejectionSaysWhenToRetryAndHasNothingRemaining() {
    Decision d = Decision.limited("api", LIMIT, 900, 400);

    assertThat(d.isAllowed()).isFalse();
    assertThat(d.remaining()).isZero();
    assertThat(d.retryAfter()).contains(Duration.ofNanos(400));
    assertThat(d.retryAfterNanos()).isEqualTo(400);
    assertThat(d.resetAfterNanos()).isEqualTo(900);
    assertThat(d.delayNanos()).isZero();
  }

  @Test
  void aRequestBeyondTheCapacityHasNoRetryTimeAtAll() {
    Decision d = Decision.exceedsCapacity("api", LIMIT, 10, 0);

    assertThat(d.retryAfter()).isEmpty();
    assertThat(d.retryAfterNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(d.toString()).contains("retryAfter=never");
    assertThat(d.remaining()).isEqualTo(10);
  }

  @Test
  void aMissingKeyRejectionNeverPassesAndReportsNothingRemaining() {
    Decision d = Decision.missingKey("api", LIMIT);

    assertThat(d.outcome()).isEqualTo(Outcome.MISSING_KEY);
    assertThat(d.isAllowed()).isFalse();
    assertThat(d.neverPasses()).isTrue();
    assertThat(d.retryAfter()).isEmpty();
    assertThat(d.retryAfterNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(d.remaining()).isZero();
    assertThat(d.policy()).isEqualTo("api");
    assertThat(d.limit()).isEqualTo(LIMIT);
    assertThat(Decision.limited("api", LIMIT, 1, 1).neverPasses()).isFalse();
  }

  @Test
  void unavailableAndFailOpenDecisionsAreUnverified() {
    Decision unavailable = Decision.unavailable("api", LIMIT, 1_000_000_000L);
    Decision open = Decision.allowedUnverified("api", Limit.bucket(10, Duration.ofSeconds(1), 20));
    Decision copy = Decision.allowed("api", LIMIT, 1, 2, 3).unverified();

    assertThat(unavailable.isVerified()).isFalse();
    assertThat(unavailable.retryAfter()).contains(Duration.ofSeconds(1));
    assertThat(open.isAllowed()).isTrue();
    assertThat(open.isVerified()).isFalse();
    assertThat(open.remaining()).isEqualTo(20);
    assertThat(copy.isVerified()).isFalse();
    assertThat(copy.remaining()).isEqualTo(1);
    assertThat(copy.unverified()).isSameAs(copy);
    assertThat(copy).isNotEqualTo(Decision.allowed("api", LIMIT, 1, 2, 3));
  }

  @Test
  void decisionsAreValues() {
    assertThat(Decision.limited("api", LIMIT, 1, 2))
        .isEqualTo(Decision.limited("api", LIMIT, 1, 2))
        .hasSameHashCodeAs(Decision.limited("api", LIMIT, 1, 2))
        .isNotEqualTo(Decision.limited("api", LIMIT, 1, 3))
        .isNotEqualTo(Decision.limited("web", LIMIT, 1, 2));
  }
}
