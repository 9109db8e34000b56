package io.github.limiter.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DemoPageTest {

  @Test
  void theCommandsFollowThePortAndContextRootTheyWereAskedAt() {
    assertThat(DemoPage.base("http", "127.0.0.1", 9090, "")).isEqualTo("http://127.0.0.1:9090");
    assertThat(DemoPage.base("http", "localhost", 8080, "/demo"))
        .isEqualTo("http://localhost:8080/demo");
    assertThat(DemoPage.base("https", "demo.example", 443, "")).isEqualTo("https://demo.example");
    assertThat(DemoPage.base("http", "::1", 8080, "")).isEqualTo("http://[::1]:8080");
    assertThat(DemoPage.base("http", "[::1]", 8080, "")).isEqualTo("http://[::1]:8080");
  }

  @Test
  void aHostThatIsMoreThanAnAddressIsNeverShown() {
    for (String host :
        new String[] {"<script>", "a\"b", "a'b", "a;rm", "$(id)", "a b", "", "x".repeat(256)}) {
      assertThat(DemoPage.base("http", host, 8080, "")).as(host).isEqualTo(DemoPage.WRITTEN_FOR);
    }
    assertThat(DemoPage.base("http", "127.0.0.1", 8080, "/a<b")).isEqualTo(DemoPage.WRITTEN_FOR);
    assertThat(DemoPage.base("javascript", "127.0.0.1", 8080, "")).isEqualTo(DemoPage.WRITTEN_FOR);
  }
}
