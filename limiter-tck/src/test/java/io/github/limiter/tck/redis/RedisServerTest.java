package io.github.limiter.tck.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The harness against real redis-server processes: start, talk, kill, freeze, restart, stop by PID.
 */
class RedisServerTest {

  private static RedisServer server;

  @BeforeAll
  static void start() {
    server = RedisServer.start("harness");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aServerListensOnLoopbackOnAFreePortAndAnswers() {
    assertThat(server.port()).isNotEqualTo(6379);
    assertThat(server.url()).isEqualTo("redis://127.0.0.1:" + server.port());
    assertThat(server.call("SET", "harness:k", "v")).isEqualTo("OK");
    assertThat(server.call("GET", "harness:k")).isEqualTo("v");
    assertThat(server.call("GET", "harness:missing")).isNull();
    assertThat(server.call("DEL", "harness:k")).isEqualTo(1L);
    assertThat(server.info("server", "tcp_port")).isEqualTo(Integer.toString(server.port()));
    assertThat(server.info("server", "process_id")).isEqualTo(Long.toString(server.pid()));
    assertThat(server.info("server", "no_such_field")).isEmpty();
    assertThat(server.call("CONFIG", "GET", "bind")).isEqualTo(List.of("bind", "127.0.0.1"));
    assertThat(server.commandStats()).containsKey("set");
    assertThat(server.commandStats().get("get").calls()).isGreaterThanOrEqualTo(2);
    assertThat(server.log()).exists();
    assertThatThrownBy(() -> server.call("NO-SUCH-COMMAND"))
        .isInstanceOf(RedisReplyException.class)
        .satisfies(e -> assertThat(((RedisReplyException) e).code()).isEqualTo("ERR"));
  }

  @Test
  void killFreezeAndRestartActOnTheServersOwnProcess() {
    RedisServer own = RedisServer.start("harness-outage");
    try {
      own.call("SET", "k", "v");
      long pid = own.pid();
      // When it is frozen, it keeps its process but answers nothing
      own.freeze();
      assertThat(own.answersPing()).isFalse();
      assertThat(own.isAlive()).isTrue();
      own.thaw();
      assertThat(own.answersPing()).isTrue();
      // When it is killed, its process is gone
      own.kill();
      assertThat(own.isAlive()).isFalse();
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      assertThat(own.answersPing()).isFalse();
      // When it is restarted, it is back on the same port, empty
      int port = own.port();
      own.restart();
      assertThat(own.port()).isEqualTo(port);
      assertThat(own.pid()).isNotEqualTo(pid);
      assertThat(own.call("GET", "k")).isNull();
      // And close stops it by its PID, even when frozen
      long restarted = own.pid();
      own.freeze();
      own.close();
      assertThat(ProcessHandle.of(restarted).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    } finally {
      own.close();
    }
  }

  @Test
  void aServerThatRequiresAuthCountsAsUpAndExternalUrlsLogIn() {
    try (RedisServer auth =
        RedisServer.start(
            "harness-auth",
            "--user",
            "default",
            "off",
            "--user",
            "tester",
            "on",
            ">s3cr:t@",
            "~*",
            "+@all")) {
      assertThat(auth.answersPing()).isTrue();
      assertThatThrownBy(() -> auth.call("GET", "k"))
          .isInstanceOf(RedisReplyException.class)
          .satisfies(e -> assertThat(((RedisReplyException) e).code()).isEqualTo("NOAUTH"));
      // An external URL's credentials, percent-decoded, are sent with AUTH first
      RedisServer withUser =
          RedisServer.external("redis://tester:s3cr%3At%40@127.0.0.1:" + auth.port());
      assertThat(withUser.call("ACL", "WHOAMI")).isEqualTo("tester");
      RedisServer wrong = RedisServer.external("redis://tester:wrong@127.0.0.1:" + auth.port());
      assertThatThrownBy(() -> wrong.call("PING"))
          .isInstanceOf(RedisReplyException.class)
          .hasMessageContaining("WRONGPASS");
    }
  }

  @Test
  void anExternalServerIsUsedButNeverStopped() {
    RedisServer external = RedisServer.external(server.url() + "/0");
    assertThat(external.isExternal()).isTrue();
    assertThat(external.url()).isEqualTo(server.url() + "/0");
    assertThat(external.port()).isEqualTo(server.port());
    assertThat(external.answersPing()).isTrue();
    assertThatThrownBy(external::kill)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("external");
    assertThatThrownBy(external::restart).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(external::freeze).isInstanceOf(IllegalStateException.class);
    external.close();
    assertThat(server.answersPing()).isTrue();
  }

  @Test
  void aBadExternalUrlNamesTheVariableAndTheValue() {
    for (String bad : List.of("http://127.0.0.1:1", "127.0.0.1:6380", "redis://")) {
      assertThatThrownBy(() -> RedisServer.external(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("REDIS_URL")
          .hasMessageContaining(bad);
    }
  }

  @Test
  void aFailedStartSaysWhyFromTheLogAndLeavesNothingRunning() {
    assertThatThrownBy(() -> RedisServer.start("harness-bad", "--no-such-option", "1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("did not answer PING")
        .hasMessageContaining("no-such-option");
  }

  @Test
  void aTlsServerSpeaksTlsOnlyAndTrustsTheGeneratedAuthority() {
    TlsCertificates certificates = TlsCertificates.generate(Path.of("target", "tls-harness"));
    assertThat(certificates.truststore()).isAbsolute().exists();
    try (RedisServer tls = RedisServer.startTls("harness-tls", certificates)) {
      assertThat(tls.url()).isEqualTo("rediss://127.0.0.1:" + tls.port());
      assertThat(tls.call("PING")).isEqualTo("PONG");
      assertThat(tls.call("CONFIG", "GET", "port")).isEqualTo(List.of("port", "0"));
      assertThat(tls.call("CONFIG", "GET", "tls-port"))
          .isEqualTo(List.of("tls-port", Integer.toString(tls.port())));
      // Plain text to the TLS port gets no answer
      assertThat(RedisServer.external("redis://127.0.0.1:" + tls.port()).answersPing()).isFalse();
    }
  }
}
