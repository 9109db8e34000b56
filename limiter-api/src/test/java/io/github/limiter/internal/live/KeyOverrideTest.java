package io.github.limiter.internal.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.live.KeyOverride.Kind;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Per-key overrides: block, exempt and limits of its own, each until it expires or is removed. */
class KeyOverrideTest {

  final ManualClock clock = ManualClock.nearMaxValue();
  final LiveLimits live = new LiveLimits(InMemoryStore.builder().clock(clock).build(), clock);
  final PolicyLimiter api =
      Limiter.of(live.store()).bind(Policy.fixedWindow("api", Limit.of(3, Duration.ofHours(1))));

  int admitted(String key, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; i++) {
      if (api.decide(key).isAllowed()) {
        admitted++;
      }
    }
    return admitted;
  }

  @Test
  void aBlockedKeyIsRefusedUntilItsBlockExpiresOnTime() {
    live.overrides().set("api", "abuser", Kind.BLOCK, null, Duration.ofMinutes(10));

    Decision refused = api.decide("abuser");
    assertThat(refused.isAllowed()).isFalse();
    assertThat(refused.retryAfterNanos()).isEqualTo(Duration.ofMinutes(10).toNanos());
    assertThat(admitted("other", 5)).as("other keys keep their limit").isEqualTo(3);

    clock.advance(Duration.ofMinutes(10).minusNanos(1));
    assertThat(admitted("abuser", 1)).isZero();
    clock.advance(Duration.ofNanos(1));
    assertThat(admitted("abuser", 5)).as("its own limit again, nothing charged").isEqualTo(3);
    assertThat(live.overrides().of("api")).isEmpty();
  }

  @Test
  void aBlockWithoutExpiryNeverPassesUntilRemoved() {
    live.overrides().set("api", "abuser", Kind.BLOCK, null, null);
    clock.advance(Duration.ofDays(400));

    Decision refused = api.decide("abuser");
    assertThat(refused.outcome()).isEqualTo(Decision.Outcome.EXCEEDS_CAPACITY);
    assertThat(api.tryAcquire("abuser", 1)).isPositive();

    assertThat(live.overrides().remove("api", "abuser")).isTrue();
    assertThat(live.overrides().remove("api", "abuser")).isFalse();
    assertThat(admitted("abuser", 1)).isEqualTo(1);
  }

  @Test
  void anExemptKeyIsNeverLimitedNorCharged() {
    assertThat(admitted("partner", 2)).isEqualTo(2);
    live.overrides().set("api", "partner", Kind.EXEMPT, null, Duration.ofMinutes(1));

    assertThat(admitted("partner", 100)).isEqualTo(100);
    assertThat(api.tryAcquire("partner", 1)).isZero();

    clock.advance(Duration.ofMinutes(1));
    assertThat(admitted("partner", 5)).as("the 2 it used before, and nothing since").isEqualTo(1);
  }

  @Test
  void aKeyWithLimitsOfItsOwnDecidesUnderThem() {
    live.overrides().set("api", "big", Kind.LIMITS, "10/1h", null);

    assertThat(admitted("big", 20)).isEqualTo(10);
    assertThat(admitted("small", 20)).isEqualTo(3);
    assertThat(live.overrides().of("api").get("big").policy().limits())
        .containsExactly(Limit.of(10, Duration.ofHours(1)));
  }

  @Test
  void anOverrideReplacesTheKeysOverride() {
    live.overrides().set("api", "k", Kind.BLOCK, null, null);
    live.overrides().set("api", "k", Kind.EXEMPT, null, null);

    assertThat(admitted("k", 10)).isEqualTo(10);
    assertThat(live.overrides().of("api")).containsOnlyKeys("k");
  }

  @Test
  void badOverridesAreRefusedNamingWhatIsWrongAndNothingChanges() {
    assertThatThrownBy(() -> live.overrides().set("nope", "k", Kind.BLOCK, null, null))
        .hasMessageContaining("no policy named 'nope'");
    assertThatThrownBy(() -> live.overrides().set("api", "", Kind.BLOCK, null, null))
        .hasMessageContaining("key: expected 1 to 128 characters");
    assertThatThrownBy(() -> live.overrides().set("api", "k", Kind.LIMITS, "lots", null))
        .hasMessageContaining("lots");
    assertThatThrownBy(() -> live.overrides().set("api", "k", Kind.LIMITS, null, null))
        .hasMessageContaining("limits: a 'limits' override needs limits");
    assertThatThrownBy(() -> live.overrides().set("api", "k", Kind.BLOCK, "5/s", null))
        .hasMessageContaining("only a 'limits' override has limits, was '5/s'");
    assertThatThrownBy(() -> live.overrides().set("api", "k", Kind.BLOCK, null, Duration.ZERO))
        .hasMessageContaining("ttl: expected a duration above 0");
    assertThatThrownBy(() -> Kind.fromConfigName("ban"))
        .hasMessageContaining("expected block, exempt or limits")
        .hasMessageContaining("'ban'");
    assertThat(live.overrides().of("api")).isEmpty();
  }

  @Test
  void aTtlBeyondAHundredYearsIsRefusedWithItsBoundAndNothingChanges() {
    // Given a clock near the end of its range, When a block of a million days is set
    assertThatThrownBy(
            () -> live.overrides().set("api", "k", Kind.BLOCK, null, Duration.ofDays(1_000_000)))
        // Then it is refused with the bound and the value, as an argument (a 400), not an overflow
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "ttl: expected a duration above 0 and at most 36500d (100 years), or none for an"
                + " override until removed, was 1000000d");
    assertThatThrownBy(
            () ->
                live.overrides()
                    .set("api", "k", Kind.BLOCK, null, KeyOverride.MAX_TTL.plusNanos(1)))
        .hasMessageContaining("was PT876000H0.000000001S");
    assertThatThrownBy(
            () ->
                live.overrides()
                    .set("api", "k", Kind.BLOCK, null, Duration.ofSeconds(Long.MAX_VALUE)))
        .hasMessageContaining("at most 36500d");
    assertThat(live.overrides().of("api")).isEmpty();
    assertThat(admitted("k", 1)).isEqualTo(1);
  }

  @Test
  void aBlockOfAHundredYearsEndsOnTimeAcrossTheClocksWrap() {
    // Given a block of the longest ttl, set 10 minutes before the clock's reading wraps
    live.overrides().set("api", "k", Kind.BLOCK, null, KeyOverride.MAX_TTL);
    assertThat(api.decide("k").retryAfterNanos()).isEqualTo(KeyOverride.MAX_TTL.toNanos());

    // When the clock runs past the wrap to a nanosecond before its end, Then it still refuses
    clock.advance(KeyOverride.MAX_TTL.minusNanos(1));
    assertThat(api.decide("k").retryAfterNanos()).isEqualTo(1);

    // And at its end it passes
    clock.advance(1);
    assertThat(admitted("k", 1)).isEqualTo(1);
    assertThat(live.overrides().of("api")).isEmpty();
  }

  @Test
  void aBlockThatEndsAtTheLastReadingOfTheClockStillEnds() {
    // Given a clock an hour before Long.MAX_VALUE, the reading that means "never"
    ManualClock last = ManualClock.at(Long.MAX_VALUE - Duration.ofHours(1).toNanos());
    LiveLimits limits = new LiveLimits(InMemoryStore.builder().clock(last).build(), last);
    PolicyLimiter bound =
        Limiter.of(limits.store())
            .bind(Policy.fixedWindow("api", Limit.of(3, Duration.ofHours(1))));

    // When a key is blocked for exactly that hour
    limits.overrides().set("api", "k", Kind.BLOCK, null, Duration.ofHours(1));

    // Then the block has an end, and the key passes there
    assertThat(bound.decide("k").outcome()).isEqualTo(Decision.Outcome.LIMITED);
    last.advance(Duration.ofHours(1).minusNanos(2));
    assertThat(bound.decide("k").isAllowed()).isFalse();
    last.advance(1);
    assertThat(bound.decide("k").isAllowed()).isTrue();
  }
}
