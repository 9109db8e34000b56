package io.github.limiter.it.harness;

import io.github.limiter.tck.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Payara Micro JVM started by hand, for what Arquillian cannot do: several nodes serving one WAR
 * at once. It gets exactly the loopback options of the Arquillian container (see arquillian.xml),
 * on a port of its own; its output is its log.
 */
public final class PayaraNode implements AutoCloseable {

  private final String name;
  private final Process process;
  private final int port;
  private final String contextRoot;
  private final Path log;

  private PayaraNode(String name, Process process, int port, String contextRoot, Path log) {
    this.name = name;
    this.process = process;
    this.port = port;
    this.contextRoot = contextRoot;
    this.log = log;
  }

  /**
   * Starts a node that deploys {@code war} at {@code contextRoot} (e.g. {@code /demo}), with {@code
   * env} added to its environment; it does not wait: see {@link #awaitReady}.
   */
  public static PayaraNode start(
      String name, Path war, String contextRoot, Map<String, String> env) {
    int port = RedisServer.freePort();
    Path dir = Path.of(Settings.required("it.server.dir"));
    Path log = dir.resolve("node-" + name + ".log");
    try {
      Files.createDirectories(dir);
      ProcessBuilder builder =
          new ProcessBuilder(command(war, contextRoot, port, List.of()))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().putAll(env);
      return new PayaraNode(name, builder.start(), port, contextRoot, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start Payara Micro node " + name, e);
    }
  }

  /**
   * The command that starts Payara Micro with the loopback options of the Arquillian container,
   * deploying {@code war} at {@code contextRoot} on {@code port}, with {@code jvmOptions} (such as
   * {@code -Dkey=value}) before {@code -jar}.
   */
  public static List<String> command(
      Path war, String contextRoot, int port, List<String> jvmOptions) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "-Dhazelcast.socket.bind.any=false",
                "-Djava.io.tmpdir=" + Settings.required("it.target.dir")));
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-jar",
            Settings.required("it.payara.jar"),
            "--deploy",
            war.toString(),
            "--contextroot",
            contextRoot,
            "--port",
            String.valueOf(port),
            "--disablephonehome",
            "--clustermode",
            "tcpip:127.0.0.1:6900",
            "--interfaces",
            "127.0.0.1",
            "--prebootcommandfile",
            Settings.required("it.payara.preboot")));
    return command;
  }

  /**
   * Waits until Payara Micro says it is ready and serves the application at its context root. Fails
   * with the node's log if it dies, times out, or booted without the application (Payara boots on
   * when a deployment fails).
   */
  public PayaraNode awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!logText().contains(" ready in ")) {
      if (!process.isAlive() || System.nanoTime() - deadline > 0) {
        throw failure(
            process.isAlive()
                ? "not ready after " + timeout
                : "exited with " + process.exitValue());
      }
      pause(200);
    }
    if (Http.get(base()).statusCode() == 404) {
      throw failure("serves nothing at " + base() + ": the deployment failed");
    }
    return this;
  }

  private AssertionError failure(String why) {
    ServerLog.printFramed(
        "Payara Micro node " + name + " " + why + ": " + log, ServerLog.tail(logText(), 400));
    return new AssertionError("Payara Micro node " + name + " " + why + "; its log is above");
  }

  /** The application's base URI, with a trailing slash. */
  public URI base() {
    String path = contextRoot.endsWith("/") ? contextRoot : contextRoot + "/";
    return URI.create("http://127.0.0.1:" + port + path);
  }

  public int port() {
    return port;
  }

  public String logText() {
    return Files.exists(log) ? ServerLog.read(log) : "";
  }

  /** Stops the node by its PID: SIGTERM (Payara shuts down cleanly), then SIGKILL after 30 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
