package io.github.limiter.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A value a client or an operator chose cannot forge or hide a log line. */
class LogTextTest {

  @Test
  void aKeyWithCrLfStaysOnItsLine() {
    // Given the key an attacker sent as atk%0D%0ASet-Cookie:%20pwn=1
    String key = "atk\r\nSet-Cookie: pwn=1";

    // When it is quoted for a log line, Then no line break is left, and the escapes show it
    String line = "limiter admin: token blocked key " + LogText.quote(key) + " of policy 'api'";
    assertThat(line)
        .doesNotContain("\r", "\n")
        .isEqualTo("limiter admin: token blocked key 'atk\\r\\nSet-Cookie: pwn=1' of policy 'api'");
  }

  @Test
  void everyControlAndFormatCharacterIsEscaped() {
    assertThat(LogText.quote("a\tb\u0000c\u001bd\u007fe\u0085f\u2028g\u2029h\u202ei"))
        .isEqualTo("'a\\tb\\u0000c\\u001bd\\u007fe\\u0085f\\u2028g\\u2029h\\u202ei'");
  }

  @Test
  void aQuoteOrABackslashCannotFakeTheValuesEnd() {
    // A key that tries to close its quotes and name another policy
    assertThat(LogText.quote("x' of policy 'other")).isEqualTo("'x\\' of policy \\'other'");
    // A backslash is doubled, so that a typed "\n" is not read as an escaped line break
    assertThat(LogText.quote("a\\nb")).isEqualTo("'a\\\\nb'");
  }

  @Test
  void plainTextIsKeptAsItIs() {
    String plain = "ip:2001:db8::1 h:Ünïcödé-キー p:alice@example.com";
    assertThat(LogText.escape(plain)).isSameAs(plain);
    assertThat(LogText.quote(plain)).isEqualTo("'" + plain + "'");
  }

  @Test
  void aMessageIsEscapedWithoutQuotesAndKeepsItsOwn() {
    assertThat(LogText.escape("limits: expected <permits>/<period>, was '1/s\nFAKE'"))
        .isEqualTo("limits: expected <permits>/<period>, was '1/s\\nFAKE'");
    assertThat(LogText.escape(null)).isEqualTo("null");
    assertThat(LogText.quote(null)).isEqualTo("null");
  }
}
