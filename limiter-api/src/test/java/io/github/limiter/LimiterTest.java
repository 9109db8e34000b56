package io.github.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Decision.Outcome;
import io.github.limiter.internal.admission.AllOrNothing;
import io.github.limiter.internal.admission.Decisions;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LimiterTest {

  final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  final Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());

  private List<PolicyLimiter> bind(List<Policy> policies) {
    return policies.stream().map(limiter::bind).toList();
  }

  private List<PolicyLimiter> bind(Policy... policies) {
    return bind(List.of(policies));
  }

  @Test
  void aBoundPolicyDecidesAsTheLimiterDoesOnTheSameState() {
    // Given a policy decided both through the limiter and through its bound form
    Policy api = Policy.tokenBucket("api", Limit.bucket(2, Duration.ofSeconds(1), 3));
    PolicyLimiter bound = limiter.bind(api);

    // When the two forms take turns on one key
    Decision first = limiter.decide(api, "k", 1);
    Decision second = bound.decide("k");
    long third = bound.tryAcquire("k", 1);
    long fourth = limiter.tryAcquire(api, "k", 1);
    Decision fifth = bound.decide("k", 2);

    // Then they share the key's state: three admitted, then rejected, each with the same retry
    assertThat(bound.policy()).isSameAs(api);
    assertThat(first.remaining()).isEqualTo(2);
    assertThat(second.remaining()).isEqualTo(1);
    assertThat(third).isZero();
    assertThat(fourth).isEqualTo(500_000_000L);
    assertThat(fifth.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(fifth.retryAfterNanos()).isEqualTo(1_000_000_000L);
    assertThatThrownBy(() -> bound.decide("k", 0))
        .hasMessageContaining("permits must be at least 1, was 0");
    assertThat(bound.decide("x".repeat(500)).remaining()).isEqualTo(2);
    assertThat(bound.decide(Limiter.boundedKey("x".repeat(500))).remaining())
        .as("one key, bounded")
        .isEqualTo(1);
  }

  @Test
  void aRequestCostsAtLeastOnePermit() {
    Policy api = Policy.tokenBucket("api", Limit.of(10, Duration.ofSeconds(1)));

    assertThatThrownBy(() -> limiter.decide(api, "k", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("permits")
        .hasMessageContaining("0");
  }

  @Test
  void severalPoliciesAreAllOrNothingAndTheRejectingOneIsReported() {
    // Given a roomy per-second policy and a per-hour one with 2 left
    Policy perSecond = Policy.tokenBucket("second", Limit.of(10, Duration.ofSeconds(1)));
    Policy perHour = Policy.fixedWindow("hour", Limit.of(2, Duration.ofHours(1)));
    List<Policy> both = List.of(perSecond, perHour);
    assertThat(AllOrNothing.decideEach(bind(both), i -> "k").allowed()).isTrue();
    Decisions second = AllOrNothing.decideEach(bind(both), i -> "k");

    // When a third request comes
    Decisions third = AllOrNothing.decideEach(bind(both), i -> "k");

    // Then the hour rejects it, and the per-second permit charged before it is given back
    assertThat(second.allowed()).isTrue();
    assertThat(second.rejection()).isNull();
    assertThat(second.all()).extracting(Decision::policy).containsExactly("second", "hour");
    assertThat(second.tightest().policy()).isEqualTo("hour");
    assertThat(second.tightest().remaining()).isZero();
    assertThat(third.allowed()).isFalse();
    assertThat(third.rejectedAt()).isEqualTo(1);
    assertThat(third.rejection().outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(third.rejection().policy()).isEqualTo("hour");
    assertThat(third.get(0).isAllowed()).isTrue();
    assertThat(limiter.decide(perSecond, "k", 1).remaining()).isEqualTo(7);
  }

  @Test
  void aRejectionStopsTheWalkAndLaterPoliciesAreNotDecided() {
    Policy first = Policy.fixedWindow("first", Limit.of(1, Duration.ofHours(1)));
    Policy second = Policy.fixedWindow("second", Limit.of(5, Duration.ofHours(1)));
    List<Policy> both = List.of(first, second);
    AllOrNothing.decideEach(bind(both), i -> "k");

    Decisions rejected = AllOrNothing.decideEach(bind(both), i -> "k");

    assertThat(rejected.rejectedAt()).isZero();
    assertThat(rejected.get(1)).isNull();
    assertThat(rejected.all()).hasSize(1);
    assertThat(limiter.decide(second, "k", 1).remaining()).isEqualTo(3);
  }

  @Test
  void eachPolicyChargesItsOwnPermitsAndAnullKeySkipsIt() {
    Policy a = Policy.fixedWindow("a", Limit.of(10, Duration.ofHours(1)));
    Policy b = Policy.fixedWindow("b", Limit.of(10, Duration.ofHours(1)));
    Policy c = Policy.fixedWindow("c", Limit.of(10, Duration.ofHours(1)));

    Decisions d =
        AllOrNothing.decideEach(
            bind(a, b, c), i -> i == 1 ? null : "k", i -> i == 0 ? 3 : 2, i -> true);

    assertThat(d.allowed()).isTrue();
    assertThat(d.size()).isEqualTo(3);
    assertThat(d.get(0).remaining()).isEqualTo(7);
    assertThat(d.get(1)).isNull();
    assertThat(d.get(2).remaining()).isEqualTo(8);
    assertThat(limiter.decide(b, "k", 1).remaining()).isEqualTo(9);
  }

  @Test
  void aRejectionByAPolicyThatIsNotEnforcedIsKeptAndTheWalkGoesOn() {
    // Given a dry-run policy that is exhausted, and an enforced one with room
    Policy dry = Policy.fixedWindow("dry", Limit.of(1, Duration.ofHours(1)));
    Policy real = Policy.fixedWindow("real", Limit.of(5, Duration.ofHours(1)));
    limiter.decide(dry, "k", 1);

    // When a request comes under both
    Decisions d = AllOrNothing.decideEach(bind(dry, real), i -> "k", i -> 1, i -> i != 0);

    // Then it is allowed, the dry-run rejection is reported, and the enforced policy charged
    assertThat(d.allowed()).isTrue();
    assertThat(d.get(0).isAllowed()).isFalse();
    assertThat(d.get(1).remaining()).isEqualTo(4);
    assertThat(d.tightest().policy()).isEqualTo("real");
  }

  @Test
  void aFailureMidwayGivesBackWhatWasCharged() {
    Policy a = Policy.fixedWindow("a", Limit.of(10, Duration.ofHours(1)));
    Policy b = Policy.fixedWindow("b", Limit.of(10, Duration.ofHours(1)));

    assertThatThrownBy(
            () ->
                AllOrNothing.decideEach(
                    bind(a, b),
                    i -> {
                      if (i == 1) {
                        throw new IllegalStateException("resolver failed");
                      }
                      return "k";
                    }))
        .hasMessage("resolver failed");

    assertThat(limiter.decide(a, "k", 1).remaining()).isEqualTo(9);
  }

  @Test
  void oneOrNoPolicyNeedsNoWalk() {
    Policy one = Policy.fixedWindow("one", Limit.of(1, Duration.ofHours(1)));

    Decisions first = AllOrNothing.decideEach(bind(one), i -> "k");
    Decisions second = AllOrNothing.decideEach(bind(one), i -> "k");
    Decisions dry = AllOrNothing.decideEach(bind(one), i -> "k", i -> 1, i -> false);
    Decisions skipped = AllOrNothing.decideEach(bind(one), i -> null);
    Decisions none = AllOrNothing.decideEach(List.of(), i -> "k");

    assertThat(first.allowed()).isTrue();
    assertThat(first.all()).hasSize(1);
    assertThat(second.allowed()).isFalse();
    assertThat(second.rejection().policy()).isEqualTo("one");
    assertThat(dry.allowed()).isTrue();
    assertThat(dry.get(0).isAllowed()).isFalse();
    assertThat(skipped.allowed()).isTrue();
    assertThat(skipped.all()).isEmpty();
    assertThat(skipped.tightest()).isNull();
    assertThat(none.allowed()).isTrue();
    assertThat(none.size()).isZero();
    assertThatThrownBy(() -> first.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void longKeysAreReplacedByADigestAndShortOnesKept() {
    String longKey = "x".repeat(500);

    assertThat(Limiter.boundedKey("client-1")).isEqualTo("client-1");
    assertThat(Limiter.boundedKey(null)).isEmpty();
    assertThat(Limiter.boundedKey(longKey))
        .startsWith("sha256:")
        .hasSizeLessThanOrEqualTo(Limiter.MAX_KEY_LENGTH)
        .isEqualTo(Limiter.boundedKey(longKey))
        .isNotEqualTo(Limiter.boundedKey(longKey + "y"));
  }

  @Test
  void theLimiterDecidesWithItsStore() {
    Policy one = Policy.fixedWindow("one", Limit.of(1, Duration.ofMinutes(1)));

    assertThat(limiter.decide(one, "k").isAllowed()).isTrue();
    assertThat(limiter.decide(one, "k").isAllowed()).isFalse();
    assertThat(limiter.store()).isInstanceOf(InMemoryStore.class);
  }
}
