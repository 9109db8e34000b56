package io.github.limiter;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Random test values from one seed, so that a case can be generated again from its seed alone.
 *
 * <p>{@link #between} leans towards its lower end half of the time (the distance from {@code min}
 * is then drawn log-uniformly), because bugs live at small counts, short waits and bounds; the
 * other half it is uniform, so the whole range is still covered. {@link #uniform} is flat.
 */
public final class Gen {

  private final SplittableRandom random;

  public Gen(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** Any long, uniformly. */
  public long anyLong() {
    return random.nextLong();
  }

  /** A long in [{@code min}, {@code max}], uniformly. */
  public long uniform(long min, long max) {
    if (min > max) {
      throw new IllegalArgumentException("min " + min + " > max " + max);
    }
    if (max < Long.MAX_VALUE) {
      return random.nextLong(min, max + 1);
    }
    if (min > Long.MIN_VALUE) {
      return random.nextLong(min - 1, max) + 1;
    }
    return random.nextLong();
  }

  /** An int in [{@code min}, {@code max}], uniformly. */
  public int uniform(int min, int max) {
    return (int) uniform((long) min, (long) max);
  }

  /**
   * A long in [{@code min}, {@code max}]: half the time uniform, half the time near {@code min}.
   */
  public long between(long min, long max) {
    long span = max - min;
    if (span < 0 || random.nextBoolean()) {
      // span < 0: the range is wider than Long.MAX_VALUE, so no distance from min fits a long
      return uniform(min, max);
    }
    // A distance of 0, 1, 2..3, 4..7, ... with every bit length up to the span's equally likely
    int bits = random.nextInt(64 - Long.numberOfLeadingZeros(span) + 1);
    long largest = bits == 0 ? 0 : bits == 63 ? Long.MAX_VALUE : (1L << bits) - 1;
    return min + uniform(0, Math.min(largest, span));
  }

  /**
   * An int in [{@code min}, {@code max}]: half the time uniform, half the time near {@code min}.
   */
  public int between(int min, int max) {
    return (int) between((long) min, (long) max);
  }

  /** True with probability {@code p}. */
  public boolean chance(double p) {
    return random.nextDouble() < p;
  }

  /** One of {@code values}, each equally likely. */
  @SafeVarargs
  public final <T> T oneOf(T... values) {
    return values[random.nextInt(values.length)];
  }

  /**
   * A list of {@code element}s whose size is {@link #between} {@code minSize} and {@code maxSize}.
   */
  public <T> List<T> list(int minSize, int maxSize, Supplier<T> element) {
    int size = between(minSize, maxSize);
    List<T> list = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      list.add(element.get());
    }
    return list;
  }
}
