package io.github.limiter.it.conformance;

import io.github.limiter.it.harness.Settings;
import io.github.limiter.tck.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Quarkus in JVM mode: {@code java -jar limiter-quarkus-sample/target/quarkus-app/quarkus-run.jar}
 * with the settings as system properties and HTTP on 127.0.0.1 at a free port. The sample serves
 * the conformance contract at the root; {@code /q/metrics} and {@code /q/health/ready} are its own
 * endpoints. Fails at once, saying how to build it, when the jar is missing.
 */
final class QuarkusRuntime implements ConformanceRuntime {

  @Override
  public String name() {
    return "quarkus";
  }

  @Override
  public ServerNode start(String name, Map<String, String> settings) {
    Path jar = Path.of(Settings.required("it.quarkus.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "it.quarkus.jar: no Quarkus application at "
              + jar
              + "; build the sample first: ./mvnw -pl limiter-quarkus-sample -am package"
              + " -DskipTests");
    }
    int port = RedisServer.freePort();
    Path log = Path.of(Settings.required("it.server.dir"), "conformance-quarkus-" + name + ".log");
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-Djava.io.tmpdir=" + Settings.required("it.target.dir"),
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port));
    command.addAll(SystemProperties.of(settings));
    command.addAll(List.of("-jar", jar.toString()));
    try {
      Files.createDirectories(log.getParent());
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      URI root = URI.create("http://127.0.0.1:" + port + "/");
      return new ServerNode(
          "Quarkus node " + name,
          process,
          new ServerNode.Endpoints(
              root,
              root.resolve("q/metrics"),
              root.resolve("q/health/ready"),
              root.resolve("q/health/live")),
          // A start that fails ends the process instead.
          Pattern.compile("Listening on: "),
          List.of(log));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start Quarkus node " + name, e);
    }
  }
}
