package io.github.limiter.tck;

import static io.github.limiter.tck.Views.blocks;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.github.limiter.UpstreamBlocks#block}, an upstream's "blocked until",
 * for stores that keep blocks (every store of this project): a block runs from the store's now for
 * the time asked, a shorter one never shortens it, a read changes nothing, and it ends on time.
 * Extend it as {@link RateLimitStoreContract}: the store takes {@code now} from the given clock, at
 * {@link #tickNanos()}.
 */
public abstract class UpstreamBlockContract {

  private static final long SECOND = Duration.ofSeconds(1).toNanos();
  private static final Policy PARTNER =
      Policy.tokenBucket("partner", Limit.bucket(5, Duration.ofSeconds(1), 5));
  private static final Policy OTHER =
      Policy.tokenBucket("other", Limit.bucket(5, Duration.ofSeconds(1), 5));

  private final List<RateLimitStore> created = new ArrayList<>();

  /** A new, empty store that reads {@code clock}. Closed by the contract after each test. */
  protected abstract RateLimitStore createStore(NanoClock clock);

  /** The store's time resolution in nanoseconds, as {@link RateLimitStoreContract#tickNanos}. */
  protected long tickNanos() {
    return 1;
  }

  @AfterEach
  void closeStores() {
    created.forEach(RateLimitStore::close);
    created.clear();
  }

  private RateLimitStore store(ManualClock clock) {
    RateLimitStore store = createStore(clock);
    created.add(store);
    return store;
  }

  @Test
  void aKeyNeverBlockedIsNotBlocked() {
    RateLimitStore store = store(ManualClock.nearMaxValue());

    assertThat(blocks(store).block(PARTNER, "https://partner:443", 0)).isZero();
  }

  @Test
  void aBlockRunsForTheTimeAskedAndEndsOnTime() {
    ManualClock clock = ManualClock.nearMaxValue(); // crosses Long.MAX_VALUE
    RateLimitStore store = store(clock);
    String key = "https://partner:443";

    // Given a block of 2 s
    assertThat(blocks(store).block(PARTNER, key, 2 * SECOND)).isEqualTo(2 * SECOND);

    // Then it runs 1.5 s later, as far as its end, and is over at it
    clock.advance(SECOND / 2 * 3);
    assertThat(blocks(store).block(PARTNER, key, 0)).isEqualTo(SECOND / 2);
    clock.advance(SECOND / 2 - tickNanos());
    assertThat(blocks(store).block(PARTNER, key, 0)).isEqualTo(tickNanos());
    clock.advance(tickNanos());
    assertThat(blocks(store).block(PARTNER, key, 0)).isZero();
    clock.advance(10 * SECOND);
    assertThat(blocks(store).block(PARTNER, key, 0)).isZero();
  }

  @Test
  void aShorterBlockNeverShortensALongerOneAndALongerOneExtendsIt() {
    ManualClock clock = ManualClock.negative();
    RateLimitStore store = store(clock);
    String key = "https://partner:443";
    blocks(store).block(PARTNER, key, 5 * SECOND);

    // When another node blocks for less, the longer block stands
    assertThat(blocks(store).block(PARTNER, key, SECOND)).isEqualTo(5 * SECOND);
    clock.advance(2 * SECOND);
    assertThat(blocks(store).block(PARTNER, key, 0)).isEqualTo(3 * SECOND);

    // When one blocks for longer, the block runs to the later end
    assertThat(blocks(store).block(PARTNER, key, 10 * SECOND)).isEqualTo(10 * SECOND);
    clock.advance(9 * SECOND);
    assertThat(blocks(store).block(PARTNER, key, 0)).isEqualTo(SECOND);
  }

  @Test
  void blocksOfOtherKeysAndOtherPoliciesAreIndependent() {
    RateLimitStore store = store(ManualClock.random(7));
    blocks(store).block(PARTNER, "https://partner:443 key-a", 3 * SECOND);

    assertThat(blocks(store).block(PARTNER, "https://partner:443 key-b", 0)).isZero();
    assertThat(blocks(store).block(OTHER, "https://partner:443 key-a", 0)).isZero();
    assertThat(blocks(store).block(PARTNER, "https://partner:443 key-a", 0)).isEqualTo(3 * SECOND);
  }

  @Test
  void aBlockLeavesTheLimitsOfItsKeyAlone() {
    RateLimitStore store = store(ManualClock.random(11));
    blocks(store).block(PARTNER, "k", 3 * SECOND);

    // The budget is the policy's, whatever the upstream said
    for (int i = 0; i < 5; i++) {
      assertThat(store.decide(PARTNER, "k", 1).isAllowed()).isTrue();
    }
    assertThat(store.decide(PARTNER, "k", 1).isAllowed()).isFalse();
  }

  @Test
  void keysWithBracesAndSpacesAreBlockedAsWritten() {
    RateLimitStore store = store(ManualClock.random(3));
    blocks(store).block(PARTNER, "{https://partner:443} key with spaces", SECOND);

    assertThat(blocks(store).block(PARTNER, "{https://partner:443} key with spaces", 0))
        .isEqualTo(SECOND);
    assertThat(blocks(store).block(PARTNER, "{https://partner:443}", 0)).isZero();
  }
}
