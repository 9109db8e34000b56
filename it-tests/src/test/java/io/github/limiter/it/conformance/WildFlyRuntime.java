package io.github.limiter.it.conformance;

import io.github.limiter.it.harness.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * WildFly 39: {@code bin/standalone.sh} with a server base directory of the node's own (a copy of
 * the build's configured {@code standalone/configuration}, the WAR in its {@code deployments}),
 * every interface on 127.0.0.1 and a free port offset. Metrics ({@code /prometheus}, the Micrometer
 * subsystem that {@code src/test/wildfly/server.cli} adds) and readiness ({@code /health/ready}) on
 * the management interface.
 */
final class WildFlyRuntime implements ConformanceRuntime {

  private static final int HTTP = 8080;
  private static final int MANAGEMENT = 9990;

  @Override
  public String name() {
    return "wildfly";
  }

  @Override
  public ServerNode start(String name, Map<String, String> settings) {
    Path home = Path.of(Settings.required("it.wildfly.home"));
    Path base = Path.of(Settings.required("it.server.dir"), "conformance-wildfly", name);
    Path log = base.resolve("console.log");
    // Every socket binding of the default standalone.xml: ajp, http, https, management, txn.
    int offset = Ports.freeOffset(8009, HTTP, 8443, MANAGEMENT, 9993, 4712, 4713);
    try {
      deleteTree(base);
      copyTree(home.resolve("standalone/configuration"), base.resolve("configuration"));
      Files.createDirectories(base.resolve("deployments"));
      Files.copy(ConformanceApp.war(), base.resolve("deployments/conformance.war"));
      List<String> command =
          new ArrayList<>(
              List.of(
                  home.resolve("bin/standalone.sh").toString(),
                  "-Djboss.server.base.dir=" + base,
                  "-Djboss.bind.address=127.0.0.1",
                  "-Djboss.bind.address.management=127.0.0.1",
                  "-Djboss.socket.binding.port-offset=" + offset));
      command.addAll(SystemProperties.of(settings));
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
      builder
          .environment()
          .put(
              "JAVA_OPTS",
              "-Xmx512m -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true -Djava.io.tmpdir="
                  + Settings.required("it.target.dir"));
      Process process = builder.start();
      URI http = URI.create("http://127.0.0.1:" + (HTTP + offset) + "/");
      URI management = URI.create("http://127.0.0.1:" + (MANAGEMENT + offset) + "/");
      return new ServerNode(
          "WildFly node " + name,
          process,
          new ServerNode.Endpoints(
              http.resolve(ConformanceApp.CONTEXT_ROOT + "/"),
              management.resolve("prometheus"),
              management.resolve("health/ready"),
              http.resolve(ConformanceApp.CONTEXT_ROOT + "/")),
          // "started in" or "started (with errors) in": the deployment scanner has run either way.
          Pattern.compile("WFLYSRV002[56]"),
          List.of(log));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start WildFly node " + name, e);
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }
}
