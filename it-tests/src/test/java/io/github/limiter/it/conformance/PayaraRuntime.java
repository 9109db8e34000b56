package io.github.limiter.it.conformance;

import io.github.limiter.it.harness.PayaraNode;
import io.github.limiter.it.harness.Settings;
import io.github.limiter.tck.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Payara Micro 6: {@code java -jar payara-micro.jar --deploy conformance.war} with the loopback
 * options of {@link PayaraNode}; {@code /metrics} and {@code /health/ready} on the HTTP port.
 */
final class PayaraRuntime implements ConformanceRuntime {

  @Override
  public String name() {
    return "payara";
  }

  @Override
  public ServerNode start(String name, Map<String, String> settings) {
    int port = RedisServer.freePort();
    Path log = Path.of(Settings.required("it.server.dir"), "conformance-" + name + ".log");
    List<String> command =
        PayaraNode.command(
            ConformanceApp.war(), ConformanceApp.CONTEXT_ROOT, port, SystemProperties.of(settings));
    try {
      Files.createDirectories(log.getParent());
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      URI root = URI.create("http://127.0.0.1:" + port + "/");
      return new ServerNode(
          "Payara Micro node " + name,
          process,
          new ServerNode.Endpoints(
              root.resolve(ConformanceApp.CONTEXT_ROOT + "/"),
              root.resolve("metrics"),
              root.resolve("health/ready"),
              root.resolve(ConformanceApp.CONTEXT_ROOT + "/")),
          // Payara Micro says so whether or not the deployment worked.
          Pattern.compile(" ready in "),
          List.of(log));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start Payara Micro node " + name, e);
    }
  }
}
