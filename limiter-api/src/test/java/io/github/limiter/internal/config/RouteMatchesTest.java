package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.http.RandomCases;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Route.matches, which compares in place to allocate nothing, agrees always with the servlet
 * URL-pattern rules written plainly (the filter's own matcher was checked the same way before it
 * was dropped for this one).
 */
class RouteMatchesTest {

  record Case(String pattern, String path, String method, boolean restrictMethods) {}

  static Stream<Named<Case>> cases() {
    return RandomCases.of(
        3000,
        3000,
        random ->
            new Case(
                pattern(random),
                path(random),
                RandomCases.oneOf(random, "GET", "POST", "PUT", "get"),
                random.nextBoolean()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void agreesWithThePlainRules(Case c) {
    Set<String> methods = c.restrictMethods() ? Set.of("POST", "GET") : Set.of();
    Route route = new Route("r", c.pattern(), methods, List.of("p"));
    assertThat(route.matches(c.path(), c.method()))
        .isEqualTo(plainly(c.pattern(), methods, c.path(), c.method()));
  }

  /** The rules as Route.matches once wrote them, allocating substrings. */
  static boolean plainly(String pattern, Set<String> methods, String path, String method) {
    if (!methods.isEmpty() && !methods.contains(method)) {
      return false;
    }
    if (pattern.startsWith("*.")) {
      return path.endsWith(pattern.substring(1));
    }
    if (pattern.endsWith("/*")) {
      String prefix = pattern.substring(0, pattern.length() - 2);
      return path.equals(prefix) || path.startsWith(prefix + "/") || prefix.isEmpty();
    }
    return path.equals(pattern);
  }

  /**
   * An exact path of up to 3 segments, such a path as a prefix ending in {@code /*}, or an
   * extension or catch-all.
   */
  static String pattern(SplittableRandom random) {
    switch (random.nextInt(3)) {
      case 0:
        return segments(random, 3, "a", "b", "api", "x.json", "");
      case 1:
        String prefix = segments(random, 3, "a", "b", "api", "x.json", "");
        return (prefix.endsWith("/") ? prefix : prefix + "/") + "*";
      default:
        return RandomCases.oneOf(random, "*.json", "*.html", "*.a", "/*", "/");
    }
  }

  static String path(SplittableRandom random) {
    return segments(random, 4, "a", "b", "api", "x.json", "", "a.json", "api.html", "apix");
  }

  /** {@code /} and up to {@code max} of {@code names}, joined by {@code /}. */
  private static String segments(SplittableRandom random, int max, String... names) {
    int count = RandomCases.upTo(random, max);
    List<String> segments = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      segments.add(RandomCases.oneOf(random, names));
    }
    return "/" + String.join("/", segments);
  }
}
