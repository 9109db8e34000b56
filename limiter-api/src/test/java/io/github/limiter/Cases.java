package io.github.limiter;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * Random cases for property tests on plain JUnit 5: {@code count} cases drawn from a fixed base
 * seed, each from a seed of its own that its name shows. Use them as
 *
 * <pre>{@code
 * static Stream<Named<Case>> cases() { return Cases.random(101, 300, MyTest::aCase); }
 *
 * @ParameterizedTest(name = "{0}")
 * @MethodSource("cases")
 * void theProperty(Case c) { ... }
 * }</pre>
 *
 * <p>The same base seed gives the same cases on every run, so a failure comes back on the next run.
 * To run one failing case alone, pass its seed (IDEs show it in the case's name) or its number
 * (Surefire reports case 17 as {@code theProperty(Case)[17]}), with {@code -Dtest} naming its test:
 * {@code ./mvnw -o -pl limiter-api test -Dtest='MyTest#theProperty' -Dlimiter.cases.seed=<seed>} or
 * {@code ... -Dlimiter.cases.index=17}.
 */
public final class Cases {

  /** The system property that replaces every case stream by the one case of that seed. */
  public static final String SEED_PROPERTY = "limiter.cases.seed";

  /** The system property that replaces every case stream by its case of that number (from 1). */
  public static final String INDEX_PROPERTY = "limiter.cases.index";

  private Cases() {}

  /**
   * {@code count} cases from {@code baseSeed}, or only the replayed one (see {@link #replaying()}).
   */
  public static <T> Stream<Named<T>> random(long baseSeed, int count, Function<Gen, T> generator) {
    String seedToReplay = System.getProperty(SEED_PROPERTY);
    if (seedToReplay != null) {
      long seed = Long.parseLong(seedToReplay.trim());
      return Stream.of(Named.of("replay of seed " + seed, generator.apply(new Gen(seed))));
    }
    String indexToReplay = System.getProperty(INDEX_PROPERTY);
    int only = indexToReplay == null ? 0 : Integer.parseInt(indexToReplay.trim());
    // Per-case seeds come from the base seed, so each case is reproducible without the others
    SplittableRandom seeds = new SplittableRandom(baseSeed);
    return IntStream.rangeClosed(1, count)
        .mapToObj(i -> Map.entry(i, seeds.nextLong()))
        .filter(c -> only == 0 || c.getKey() == only)
        .map(
            c ->
                Named.of(
                    "case " + c.getKey() + " of " + count + ", seed " + c.getValue(),
                    generator.apply(new Gen(c.getValue()))));
  }

  /** Whether one case is being replayed: checks across all cases (coverage) do not apply then. */
  public static boolean replaying() {
    return System.getProperty(SEED_PROPERTY) != null || System.getProperty(INDEX_PROPERTY) != null;
  }
}
