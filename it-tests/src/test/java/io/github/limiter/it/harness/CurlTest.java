package io.github.limiter.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The docs' curl lines, read as the shell and curl read them. */
class CurlTest {

  private static final Map<String, String> TOKEN = Map.of("LIMITER_ADMIN_TOKEN", "secret-token");
  private static final UnaryOperator<String> SAME = url -> url;

  @Test
  void readsQuotesVariablesMethodHeadersAndBody() {
    Curl put =
        Curl.parse(
            "curl -s -H \"Authorization: Bearer $LIMITER_ADMIN_TOKEN\" -X PUT"
                + " -d '{\"kind\":\"block\",\"ttl\":\"1h\"}' http://h:1/p/o/h:k1",
            TOKEN,
            SAME);

    assertThat(put.times()).isEqualTo(1);
    assertThat(put.method()).isEqualTo("PUT");
    assertThat(put.uri()).hasToString("http://h:1/p/o/h:k1");
    assertThat(put.body()).isEqualTo("{\"kind\":\"block\",\"ttl\":\"1h\"}");
    assertThat(put.headers())
        .containsExactly(
            new String[] {"Authorization", "Bearer secret-token"},
            new String[] {"Content-Type", "application/x-www-form-urlencoded"});
  }

  @Test
  void dataWithoutAMethodIsAPostAndNoDataIsAGet() {
    assertThat(Curl.parse("curl -d 'a=1' http://h/x", Map.of(), SAME).method()).isEqualTo("POST");
    assertThat(Curl.parse("curl -i ${NAME}/x", Map.of("NAME", "http://h"), SAME))
        .satisfies(c -> assertThat(c.method()).isEqualTo("GET"))
        .satisfies(c -> assertThat(c.uri()).hasToString("http://h/x"));
  }

  @Test
  void aLoopRepeatsItsCommandAndTheUrlIsMoved() {
    Curl loop =
        Curl.parse(
            "for i in $(seq 6); do curl -s -o /dev/null -w '%{http_code} ' -H 'X-Api-Key: k1'"
                + " 'http://127.0.0.1:8080/api?tokens=50'; done; echo",
            Map.of(), url -> url.replace("http://127.0.0.1:8080", "http://127.0.0.1:31234/demo"));

    assertThat(loop.times()).isEqualTo(6);
    assertThat(loop.uri()).hasToString("http://127.0.0.1:31234/demo/api?tokens=50");
    assertThat(loop.headers()).containsExactly(new String[] {"X-Api-Key", "k1"});
  }

  @Test
  void whatItCannotRunIsRefusedByName() {
    assertThatThrownBy(() -> Curl.parse("curl -k http://h/", Map.of(), SAME))
        .hasMessageContaining("-k");
    assertThatThrownBy(() -> Curl.parse("curl -H \"X: $OTHER\" http://h/", TOKEN, SAME))
        .hasMessageContaining("$OTHER");
    assertThatThrownBy(() -> Curl.parse("curl http://h/ | jq .", Map.of(), SAME))
        .hasMessageContaining("'|'");
    assertThatThrownBy(() -> Curl.parse("wget http://h/", Map.of(), SAME))
        .hasMessageContaining("not a curl command");
    assertThatThrownBy(() -> Curl.parse("curl -X PUT", Map.of(), SAME))
        .hasMessageContaining("no URL");
    assertThatThrownBy(() -> Curl.parse("curl -d 'unclosed http://h/", Map.of(), SAME))
        .hasMessageContaining("unclosed");
    assertThatThrownBy(() -> Curl.parse("curl -o out.json http://h/", Map.of(), SAME))
        .hasMessageContaining("/dev/null");
  }
}
