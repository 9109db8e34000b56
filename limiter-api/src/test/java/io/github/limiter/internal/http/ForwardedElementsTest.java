package io.github.limiter.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ForwardedElementsTest {

  private static List<String> nodes(String value) {
    List<String> out = new ArrayList<>();
    ForwardedElements.forNodes(value, out);
    return out;
  }

  @Test
  void readsTheForNodeOfEachElement() {
    assertThat(nodes("for=192.0.2.60;proto=http;by=203.0.113.43")).containsExactly("192.0.2.60");
    assertThat(nodes("for=192.0.2.43, for=\"[2001:db8:cafe::17]:4711\""))
        .containsExactly("192.0.2.43", "[2001:db8:cafe::17]:4711");
    assertThat(nodes("For=\"_gazonk\"")).containsExactly("_gazonk");
    assertThat(nodes("proto=https;FOR=198.51.100.17 ,for=unknown"))
        .containsExactly("198.51.100.17", "unknown");
    assertThat(nodes(" , for=192.0.2.1 ,, ")).containsExactly("192.0.2.1");
    assertThat(nodes("for=\"a\\\"b\"")).containsExactly("a\"b");
  }

  @Test
  void unreadableElementsAreNull() {
    assertThat(nodes("proto=http")).containsExactly((String) null);
    assertThat(nodes("for=")).containsExactly((String) null);
    assertThat(nodes("for=\"192.0.2.1")).containsExactly((String) null);
    assertThat(nodes("for=1.2.3.4;for=5.6.7.8")).containsExactly((String) null);
    assertThat(nodes("garbage, for=192.0.2.9")).containsExactly(null, "192.0.2.9");
    assertThat(nodes("for=1.2.3.4 x, for=192.0.2.9")).containsExactly(null, "192.0.2.9");
    assertThat(nodes("===")).containsExactly((String) null);
  }

  static Stream<Named<String>> values() {
    return RandomCases.of(7239, 1000, RandomCases::text);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("values")
  void neverThrows(String value) {
    assertThat(nodes(value)).isNotNull();
  }
}
