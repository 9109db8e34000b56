package io.github.limiter.it.conformance;

import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.ServerLog;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One server process of a {@link ConformanceRuntime}, serving the conformance application: where it
 * serves it, where the runtime's own metrics and readiness endpoints are, and what it logged.
 * Stopped by its PID and its children's (a start script's JVM), never by name.
 */
public final class ServerNode implements AutoCloseable {

  /**
   * Where a runtime serves the conformance application ({@code app}, with a trailing slash), its
   * own metrics and readiness endpoints, and a page outside every limit that answers 200 once the
   * application is up ({@code probe}).
   */
  public record Endpoints(URI app, URI metrics, URI readiness, URI probe) {}

  private final String name;
  private final Process process;
  private final Endpoints endpoints;
  private final Pattern startedMarker;
  private final List<Path> logs;

  /**
   * @param startedMarker what the runtime logs once it has tried to start the application, whether
   *     that worked or not
   * @param logs the process's output first, then any log file the runtime writes
   */
  public ServerNode(
      String name, Process process, Endpoints endpoints, Pattern startedMarker, List<Path> logs) {
    this.name = name;
    this.process = process;
    this.endpoints = endpoints;
    this.startedMarker = startedMarker;
    this.logs = List.copyOf(logs);
  }

  /** The application's base URI, with a trailing slash: {@code api/route} resolves against it. */
  public URI app() {
    return endpoints.app();
  }

  public URI app(String path) {
    return endpoints.app().resolve(path);
  }

  /** The runtime's own metrics scrape, in the Prometheus text format. */
  public String scrape() {
    HttpResponse<String> scrape = Http.get(endpoints.metrics(), "Accept", "text/plain");
    if (scrape.statusCode() != 200) {
      throw new AssertionError(
          "GET " + endpoints.metrics() + ": " + scrape.statusCode() + " " + scrape.body());
    }
    return scrape.body();
  }

  /** The runtime's own readiness endpoint. */
  public HttpResponse<String> readiness() {
    return Http.get(endpoints.readiness());
  }

  /** The PIDs of the process and its descendants (a start script and its JVM). */
  public List<Long> pids() {
    return Stream.concat(Stream.of(process.toHandle()), process.toHandle().descendants())
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .toList();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Every log of the node, one after another. */
  public String logText() {
    return logs.stream()
        .filter(Files::exists)
        .map(log -> "--- " + log + "\n" + ServerLog.read(log))
        .collect(Collectors.joining("\n"));
  }

  /**
   * Waits until the runtime has tried to start the application (its marker is logged) or the
   * process has ended; fails with the logs after {@code timeout}.
   */
  public ServerNode awaitSettled(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (process.isAlive() && !startedMarker.matcher(logText()).find()) {
      if (System.nanoTime() - deadline > 0) {
        throw failure("did not log '" + startedMarker + "' within " + timeout);
      }
      pause(200);
    }
    return this;
  }

  /**
   * Waits until the application answers (a GET of its probe gives 200), failing with the logs if
   * the process ends, the deployment failed, or {@code timeout} passes.
   */
  public ServerNode awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    awaitSettled(timeout);
    while (true) {
      if (!process.isAlive()) {
        throw failure("exited with " + process.exitValue());
      }
      int status = status(endpoints.probe());
      if (status == 200) {
        return this;
      }
      if (System.nanoTime() - deadline > 0) {
        throw failure("GET " + endpoints.probe() + " gave " + status + " after " + timeout);
      }
      pause(200);
    }
  }

  /** The status of a GET, or -1 when nothing answers. */
  public static int status(URI uri) {
    try {
      return Http.get(uri).statusCode();
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Prints the node's logs, framed, and returns an error that points at them. */
  public AssertionError failure(String why) {
    ServerLog.printFramed(name + " " + why, ServerLog.tail(logText(), 400));
    return new AssertionError(name + " " + why + "; its log is above");
  }

  /** SIGTERM to the process and its descendants, then SIGKILL after 30 s. */
  @Override
  public void close() {
    List<ProcessHandle> all =
        Stream.concat(process.toHandle().descendants(), Stream.of(process.toHandle())).toList();
    all.forEach(ProcessHandle::destroy);
    try {
      for (ProcessHandle handle : all) {
        try {
          handle.onExit().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException
            | java.util.concurrent.ExecutionException e) {
          handle.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      all.forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Override
  public String toString() {
    return name + " at " + app();
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
