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
 * Open Liberty 25.0.0.11: {@code bin/server run conformance} in a user directory of the node's own
 * ({@code WLP_USER_DIR}), with a generated {@code server.xml} whose one listener is HTTP on
 * 127.0.0.1, and the settings in its {@code jvm.options}. No {@code localConnector}: nothing needs
 * JMX here, and the JDK's local management agent behind it listens on every interface. {@code
 * /metrics} and {@code /health/ready} on the HTTP port.
 */
final class OpenLibertyRuntime implements ConformanceRuntime {

  private static final String SERVER = "conformance";

  @Override
  public String name() {
    return "openliberty";
  }

  @Override
  public ServerNode start(String name, Map<String, String> settings) {
    Path wlp = Path.of(Settings.required("it.wlp.home"));
    Path userDir = Path.of(Settings.required("it.server.dir"), "conformance-liberty", name);
    Path server = userDir.resolve("servers").resolve(SERVER);
    Path console = userDir.resolve("console.log");
    int port = RedisServer.freePort();
    try {
      WildFlyRuntime.deleteTree(userDir);
      Files.createDirectories(server);
      Files.writeString(server.resolve("server.xml"), serverXml(port));
      List<String> jvm = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseSerialGC"));
      jvm.add("-Djava.io.tmpdir=" + Settings.required("it.target.dir"));
      jvm.addAll(SystemProperties.of(settings));
      Files.write(server.resolve("jvm.options"), jvm);
      ProcessBuilder builder =
          new ProcessBuilder(wlp.resolve("bin/server").toString(), "run", SERVER)
              .redirectErrorStream(true)
              .redirectOutput(console.toFile());
      builder.environment().put("WLP_USER_DIR", userDir.toString());
      builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
      Process process = builder.start();
      URI root = URI.create("http://127.0.0.1:" + port + "/");
      return new ServerNode(
          "Open Liberty node " + name,
          process,
          new ServerNode.Endpoints(
              root.resolve(ConformanceApp.CONTEXT_ROOT + "/"),
              root.resolve("metrics"),
              root.resolve("health/ready"),
              root.resolve(ConformanceApp.CONTEXT_ROOT + "/")),
          // "The server conformance is ready to run a smarter planet": after its applications
          // started or failed to.
          Pattern.compile("CWWKF0011I"),
          List.of(console, server.resolve("logs/messages.log")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start Open Liberty node " + name, e);
    }
  }

  /**
   * The features that Limiter's servlet, CDI, Jakarta REST, MicroProfile Config, Health and Metrics
   * parts need; HTTP on 127.0.0.1 only, no HTTPS; the WAR at {@link ConformanceApp#CONTEXT_ROOT}.
   */
  private static String serverXml(int port) {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <server description="Limiter conformance">
          <featureManager>
            <feature>servlet-6.0</feature>
            <feature>cdi-4.0</feature>
            <feature>restfulWS-3.1</feature>
            <feature>mpConfig-3.1</feature>
            <feature>mpHealth-4.0</feature>
            <feature>mpMetrics-5.1</feature>
          </featureManager>
          <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%d" httpsPort="-1"/>
          <mpMetrics authentication="false"/>
          <webContainer deferServletLoad="false"/>
          <applicationMonitor updateTrigger="disabled" dropinsEnabled="false"/>
          <config updateTrigger="disabled"/>
          <webApplication location="%s" contextRoot="%s"/>
        </server>
        """
        .formatted(port, ConformanceApp.war(), ConformanceApp.CONTEXT_ROOT);
  }
}
