package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.internal.config.KeySource.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeySourceTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "remote-address        | REMOTE_ADDRESS | ''",
        "' Remote-Address '    | REMOTE_ADDRESS | ''",
        "principal             | PRINCIPAL      | ''",
        "constant              | CONSTANT       | ''",
        "header:X-Api-Key      | HEADER         | X-Api-Key",
        "'HEADER: X-Api-Key '  | HEADER         | X-Api-Key",
        "resolver:tenant       | RESOLVER       | tenant",
        "resolver:a.b_c-d      | RESOLVER       | a.b_c-d"
      })
  void parsesEveryForm(String text, Kind kind, String argument) {
    KeySource source = KeySource.parse(text);

    assertThat(source.kind()).isEqualTo(kind);
    assertThat(source.argument()).isEqualTo(argument);
    assertThat(KeySource.parse(source.toString())).isEqualTo(source);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "ip",
        "header",
        "header:",
        "header: ",
        "header:X Api",
        "header:a:b",
        "resolver:",
        "principal:name",
        "constant:x",
        "remote-address:x",
        "cookie:sid"
      })
  void rejectsTheRestNamingTheTextAndTheForms(String text) {
    assertThatThrownBy(() -> KeySource.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was '" + text.trim() + "'")
        .hasMessageContaining(
            "expected remote-address, header:<name>, principal, constant or resolver:<name>");
  }
}
