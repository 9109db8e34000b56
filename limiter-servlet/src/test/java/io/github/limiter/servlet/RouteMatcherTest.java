package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.config.Route;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The filter's allocation-free matcher agrees with the core's Route.matches, always. */
class RouteMatcherTest {

  @Property(tries = 3000)
  void agreesWithRoute(@ForAll("patterns") String pattern, @ForAll("paths") String path, @ForAll("methods") String method,
      @ForAll boolean restrictMethods) {
    Route route = new Route("r", pattern, restrictMethods ? Set.of("POST", "GET") : Set.of(), List.of("p"));
    assertThat(new RouteMatcher(route).matches(path, method)).isEqualTo(route.matches(path, method));
  }

  @Provide
  Arbitrary<String> patterns() {
    Arbitrary<String> segments = Arbitraries.of("a", "b", "api", "x.json", "").list().ofMaxSize(3)
        .map(list -> "/" + String.join("/", list));
    return Arbitraries.oneOf(
        segments,
        segments.map(s -> (s.endsWith("/") ? s : s + "/") + "*"),
        Arbitraries.of("*.json", "*.html", "*.a", "/*", "/"));
  }

  @Provide
  Arbitrary<String> paths() {
    return Arbitraries.of("a", "b", "api", "x.json", "", "a.json", "api.html", "apix").list().ofMaxSize(4)
        .map(list -> "/" + String.join("/", list));
  }

  @Provide
  Arbitrary<String> methods() {
    return Arbitraries.of("GET", "POST", "PUT", "get");
  }
}
