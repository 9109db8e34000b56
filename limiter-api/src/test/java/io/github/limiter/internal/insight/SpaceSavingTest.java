package io.github.limiter.internal.insight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Space-Saving sketch: bounded memory, heavy keys found, counts bracketing the truth. */
class SpaceSavingTest {

  @Test
  void aFloodOfDistinctKeysNeitherHidesTheHeavyKeysNorGrowsTheSketch() {
    // Given a sketch of 80 slots
    SpaceSaving sketch = new SpaceSaving(80);

    // When 100,000 distinct keys arrive, once each, with 3 heavy keys among them (2% each)
    for (int i = 0; i < 100_000; i++) {
      sketch.add("flood-" + i, 1);
      if (i % 50 == 0) {
        sketch.add("heavy-a", 1);
        sketch.add("heavy-b", 1);
        sketch.add("heavy-c", 1);
      }
      // Then it never counts more keys than its capacity
      if (i % 997 == 0) {
        assertThat(sketch.size()).isLessThanOrEqualTo(80);
      }
    }

    // And the 3 heavy keys lead the list, each seen 2000 times (the count is an upper bound)
    List<KeyCount> top = sketch.top(3);
    assertThat(top)
        .extracting(KeyCount::key)
        .containsExactlyInAnyOrder("heavy-a", "heavy-b", "heavy-c");
    assertThat(top).allSatisfy(c -> assertThat(c.guaranteed()).isLessThanOrEqualTo(2000));
    assertThat(top).allSatisfy(c -> assertThat(c.count()).isGreaterThanOrEqualTo(2000));
    assertThat(sketch.size()).isEqualTo(80);
    assertThat(sketch.total()).isEqualTo(106_000);
  }

  @Test
  void fewerKeysThanSlotsAreCountedExactly() {
    SpaceSaving sketch = new SpaceSaving(4);

    sketch.add("a", 3);
    sketch.add("b", 1);
    sketch.add("a", 2);
    sketch.add("c", 7);

    assertThat(sketch.top(10))
        .containsExactly(new KeyCount("c", 7, 0), new KeyCount("a", 5, 0), new KeyCount("b", 1, 0));
    assertThat(sketch.floor()).isZero();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 7, 42, 2026})
  void everyCountBracketsTheTrueCountAndEveryFrequentKeyIsCounted(long seed) {
    // Given a skewed random stream over 5000 keys, and the true counts
    Random random = new Random(seed);
    SpaceSaving sketch = new SpaceSaving(50);
    Map<String, Long> truth = new HashMap<>();
    int n = 50_000;
    for (int i = 0; i < n; i++) {
      int k = (int) Math.min(4999, Math.abs(random.nextGaussian()) * 300);
      String key = "k" + k;
      sketch.add(key, 1);
      truth.merge(key, 1L, Long::sum);
    }

    // Then each counted key's count is at least its true count, and count - error at most it
    for (KeyCount count : sketch.counted()) {
      long real = truth.get(count.key());
      assertThat(count.count()).as(count.key()).isGreaterThanOrEqualTo(real);
      assertThat(count.guaranteed()).as(count.key()).isLessThanOrEqualTo(real);
    }
    // And every key above total/capacity is counted
    List<String> counted = sketch.counted().stream().map(KeyCount::key).toList();
    truth.forEach(
        (key, real) -> {
          if (real > n / 50) {
            assertThat(counted).as("a key seen %d times", real).contains(key);
          }
        });
  }

  @Test
  void aLongKeyIsCountedByItsFirstCharacters() {
    SpaceSaving sketch = new SpaceSaving(2);
    String longKey = "h:" + "x".repeat(10_000);

    sketch.add(longKey, 1);
    sketch.add(longKey, 1);

    KeyCount only = sketch.top(1).get(0);
    assertThat(only.key()).hasSize(129).startsWith("h:xxx").endsWith("\u2026");
    assertThat(only.count()).isEqualTo(2);
  }

  @Test
  void clearingForgetsEveryKey() {
    SpaceSaving sketch = new SpaceSaving(2);
    sketch.add("a", 1);
    sketch.add("b", 1);
    sketch.add("c", 1);

    sketch.clear();

    assertThat(sketch.counted()).isEmpty();
    assertThat(sketch.total()).isZero();
    sketch.add("d", 1);
    assertThat(sketch.top(5)).containsExactly(new KeyCount("d", 1, 0));
  }

  @Test
  void aSketchNeedsASlot() {
    assertThatThrownBy(() -> new SpaceSaving(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
  }
}
