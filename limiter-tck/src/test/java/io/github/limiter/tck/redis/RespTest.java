package io.github.limiter.tck.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RespTest {

  private static Object read(String reply) throws IOException {
    return Resp.read(new ByteArrayInputStream(reply.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aCommandIsAnArrayOfBulkStringsCountedInBytes() {
    assertThat(new String(Resp.encode("SET", "ä", ""), StandardCharsets.UTF_8))
        .isEqualTo("*3\r\n$3\r\nSET\r\n$2\r\nä\r\n$0\r\n\r\n");
  }

  @Test
  void repliesBecomeJavaValues() throws IOException {
    assertThat(read("+PONG\r\n")).isEqualTo("PONG");
    assertThat(read(":-42\r\n")).isEqualTo(-42L);
    assertThat(read("$5\r\na\r\nbc\r\n")).isEqualTo("a\r\nbc");
    assertThat(read("$-1\r\n")).isNull();
    assertThat(read("*-1\r\n")).isNull();
    assertThat(read("*0\r\n")).isEqualTo(List.of());
    assertThat(read("*3\r\n$5\r\nslave\r\n*1\r\n:1\r\n$-1\r\n"))
        .isEqualTo(Arrays.asList("slave", List.of(1L), null));
  }

  @Test
  void anErrorReplyThrowsWithItsCodeButInsideAnArrayIsAValue() throws IOException {
    assertThatThrownBy(() -> read("-NOAUTH Authentication required.\r\n"))
        .isInstanceOf(RedisReplyException.class)
        .hasMessage("NOAUTH Authentication required.")
        .satisfies(e -> assertThat(((RedisReplyException) e).code()).isEqualTo("NOAUTH"));
    List<?> items = (List<?>) read("*2\r\n+OK\r\n-ERR no\r\n");
    assertThat(items.get(0)).isEqualTo("OK");
    assertThat(items.get(1)).isInstanceOf(RedisReplyException.class);
  }

  @Test
  void aTruncatedOrForeignReplyIsAnIoError() {
    assertThatThrownBy(() -> read("")).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> read("$10\r\nabc")).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> read("+OK")).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> read("HTTP/1.1 400\r\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("HTTP/1.1 400");
  }
}
