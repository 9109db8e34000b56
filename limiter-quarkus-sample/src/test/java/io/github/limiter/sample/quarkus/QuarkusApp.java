package io.github.limiter.sample.quarkus;

import io.github.limiter.tck.redis.RedisServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The sample's {@code quarkus-run.jar} as a process of its own on a free loopback port, with
 * settings given as system properties; its output goes to a file under {@code target/}. Reusable by
 * any suite that checks a Quarkus application over HTTP: {@link #start} waits until it listens, or
 * fails with the output of a start that failed.
 */
final class QuarkusApp implements AutoCloseable {

  private static final Duration START = Duration.ofSeconds(90);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final Path output;
  private final int port;

  private QuarkusApp(Process process, Path output, int port) {
    this.process = process;
    this.output = output;
    this.port = port;
  }

  /** The application's runnable jar: the {@code quarkus.sample.jar} system property of the IT. */
  static Path jar() {
    return Path.of(System.getProperty("quarkus.sample.jar", "target/quarkus-app/quarkus-run.jar"));
  }

  /**
   * Starts the application with {@code settings} as {@code -Dkey=value} and waits until it answers;
   * throws with its output if it exits first.
   */
  static QuarkusApp start(String name, Map<String, String> settings) {
    Process process = launch(name, settings);
    int port = Integer.parseInt(settings.getOrDefault("quarkus.http.port", "0"));
    QuarkusApp app = new QuarkusApp(process, outputOf(name), port);
    app.awaitListening();
    return app;
  }

  /**
   * Starts the application with {@code settings} and waits for it to exit, as a start with a bad
   * setting does; returns its output.
   */
  static String failedStart(String name, Map<String, String> settings) {
    Process process = launch(name, settings);
    try {
      if (!process.waitFor(START.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(name + " did not stop within " + START + ": " + read(name));
      }
      if (process.exitValue() == 0) {
        throw new AssertionError(name + " exited with 0, expected a failed start: " + read(name));
      }
      return read(name);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Settings for a start on {@code port}: the port, and Redis when {@code redis} is not null. */
  static Map<String, String> settings(int port, RedisServer redis) {
    Map<String, String> settings = new java.util.LinkedHashMap<>();
    settings.put("quarkus.http.port", Integer.toString(port));
    if (redis != null) {
      settings.put("limiter.store", "redis");
      settings.put("limiter.redis.url", redis.url());
    }
    return settings;
  }

  private static Process launch(String name, Map<String, String> settings) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-jar");
    command.add(jar().toString());
    try {
      Path output = outputOf(name);
      Files.createDirectories(output.getParent());
      return new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(output.toFile())
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  private static Path outputOf(String name) {
    return Path.of("target", "quarkus-runs", name + ".log");
  }

  private static String read(String name) {
    try {
      return Files.readString(outputOf(name));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  private void awaitListening() {
    long deadline = System.nanoTime() + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError("the application exited while starting: " + output());
      }
      if (output().contains("Listening on:")) {
        return;
      }
      try {
        // A real process's start: wait on the process, which wakes at once if it exits.
        process.waitFor(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
    close();
    throw new AssertionError("the application did not listen within " + START + ": " + output());
  }

  /** Everything the process printed so far. */
  String output() {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  /** {@code GET path} with {@code headers} (name, value, ...). */
  HttpResponse<String> get(String path, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * The status of {@code GET path} sent over a socket bound to {@code localAddress} (a loopback
   * address such as {@code 127.0.0.2}, so that the application sees another peer), with {@code
   * headerLines} written as they are, which lets a test send what a well-behaved client would not.
   */
  int statusFrom(String localAddress, String path, String... headerLines) {
    StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\n");
    request.append("Host: 127.0.0.1:").append(port).append("\r\n");
    for (String line : headerLines) {
      request.append(line).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    try (Socket socket = new Socket()) {
      socket.setSoTimeout(10_000);
      socket.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      BufferedReader response =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
      String status = response.readLine(); // HTTP/1.1 200 OK
      if (status == null || !status.startsWith("HTTP/1.1 ")) {
        throw new AssertionError("GET " + path + " from " + localAddress + ": " + status);
      }
      return Integer.parseInt(status.substring(9, 12));
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path + " from " + localAddress, e);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
