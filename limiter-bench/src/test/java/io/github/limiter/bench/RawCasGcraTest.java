package io.github.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The floor must be a correct GCRA, or the ratio against it means nothing. Times are given, never
 * read.
 */
class RawCasGcraTest {

  private static final long START = Long.MAX_VALUE - 50; // a hostile origin: readings overflow

  @Test
  void admits_the_burst_at_once_then_one_per_interval() {
    // Given a burst of 3 at one per 10 ns
    RawCasGcra gcra = new RawCasGcra(10, 3, START);

    // When 4 arrive at once, Then 3 pass
    assertThat(gcra.tryAcquire(START)).isTrue();
    assertThat(gcra.tryAcquire(START)).isTrue();
    assertThat(gcra.tryAcquire(START)).isTrue();
    assertThat(gcra.tryAcquire(START)).isFalse();

    // And one more passes only after one interval
    assertThat(gcra.tryAcquire(START + 9)).isFalse();
    assertThat(gcra.tryAcquire(START + 10)).isTrue();
    assertThat(gcra.tryAcquire(START + 10)).isFalse();
  }

  @Test
  void never_admits_more_than_burst_plus_rate_times_time() {
    RawCasGcra gcra = new RawCasGcra(7, 5, START);
    int admitted = 0;
    for (long t = 0; t < 700; t++) {
      if (gcra.tryAcquire(START + t)) {
        admitted++;
      }
    }
    // b + t/T = 5 + 699/7, rounded down
    assertThat(admitted).isEqualTo(5 + 699 / 7);
  }

  @Test
  void rejects_bad_parameters_naming_them() {
    assertThatThrownBy(() -> new RawCasGcra(0, 1, 0))
        .hasMessageContaining("intervalNanos")
        .hasMessageContaining("0");
  }
}
