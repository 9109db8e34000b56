package io.github.limiter.tck.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness runs without a Redis installed: the embedded binary extracts and runs. */
class RedisExecutableTest {

  @Test
  void withoutRedisOnThePathTheEmbeddedBinaryIsExtractedExecutableAndRuns(@TempDir Path bin)
      throws Exception {
    // Given a PATH without redis-server
    assertThat(RedisExecutable.onPath(bin.toString())).isEmpty();

    // When the embedded binary is extracted, twice
    Path extracted = RedisExecutable.embedded(bin);
    Path again = RedisExecutable.embedded(bin);

    // Then it is one executable file under bin, with no partial file left, and it is Redis 7.0.15
    assertThat(again).isEqualTo(extracted);
    assertThat(extracted.getParent()).isEqualTo(bin);
    assertThat(Files.isExecutable(extracted)).isTrue();
    try (var files = Files.list(bin)) {
      assertThat(files).containsExactly(extracted);
    }
    Process version =
        new ProcessBuilder(extracted.toString(), "--version").redirectErrorStream(true).start();
    String output = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(version.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(output).startsWith("Redis server v=" + RedisExecutable.EMBEDDED_VERSION + " ");
  }

  @Test
  void anExecutableRedisServerOnThePathIsPreferred(@TempDir Path dir) throws Exception {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Path withRedis = Files.createDirectory(dir.resolve("with-redis"));
    Path notExecutable = Files.createDirectory(dir.resolve("not-executable"));
    Path server = Files.writeString(withRedis.resolve("redis-server"), "#!/bin/sh\n");
    assertThat(server.toFile().setExecutable(true)).isTrue();
    Files.writeString(notExecutable.resolve("redis-server"), "#!/bin/sh\n");

    String path =
        String.join(
            File.pathSeparator,
            empty.toString(),
            "",
            notExecutable.toString(),
            withRedis.toString());

    assertThat(RedisExecutable.onPath(path)).contains(server);
    assertThat(RedisExecutable.onPath(null)).isEmpty();
  }
}
