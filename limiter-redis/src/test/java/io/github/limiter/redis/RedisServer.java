package io.github.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * A real redis-server process on a free 127.0.0.1 port, started directly (not through a shell) so
 * that the process we hold is the server and we can stop it by its PID. Never port 6379.
 */
final class RedisServer implements AutoCloseable {

  private static final Path ROOT = Path.of(System.getProperty("user.dir"), "target", "redis");

  private final int port;
  private final Path dir;
  private final List<String> extraArgs;
  private final String externalUrl;
  private Process process;

  private RedisServer(int port, Path dir, List<String> extraArgs, String externalUrl) {
    this.port = port;
    this.dir = dir;
    this.extraArgs = extraArgs;
    this.externalUrl = externalUrl;
  }

  /** Starts a server; {@code extraArgs} are more redis-server options, e.g. cluster ones. */
  static RedisServer start(String name, String... extraArgs) {
    int port = freePort();
    Path dir = ROOT.resolve(name + "-" + port);
    RedisServer server = new RedisServer(port, dir, List.of(extraArgs), null);
    server.launch();
    return server;
  }

  /** The server named by {@code REDIS_URL}, if set; it is never stopped or restarted. */
  static RedisServer external(String url) {
    return new RedisServer(java.net.URI.create(url).getPort(), null, List.of(), url);
  }

  static int freePort() {
    for (int attempt = 0; attempt < 20; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        // Cluster bus ports are port + 10000; keep both in range and stay off 6379.
        if (port != 6379 && port + 10_000 <= 65_535) {
          return port;
        }
      } catch (IOException e) {
        throw new IllegalStateException("no free port", e);
      }
    }
    throw new IllegalStateException("no usable free port");
  }

  private void launch() {
    try {
      Files.createDirectories(dir);
      List<String> command = new ArrayList<>(List.of(
          "redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(port),
          "--save", "", "--appendonly", "no", "--dir", dir.toString()));
      command.addAll(extraArgs);
      process = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
          .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start redis-server (is it on PATH?)", e);
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!answersPing()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("redis-server on port " + port + " did not start; see " + dir.resolve("redis.log"));
      }
      pause(20);
    }
  }

  /** Whether the server answers PING (or NOAUTH, which is an answer too). */
  boolean answersPing() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      socket.setSoTimeout(500);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[64];
      int n = in.read(buffer);
      String reply = n > 0 ? new String(buffer, 0, n, StandardCharsets.US_ASCII) : "";
      return reply.startsWith("+PONG") || reply.contains("NOAUTH");
    } catch (IOException e) {
      return false;
    }
  }

  int port() {
    return port;
  }

  String url() {
    return externalUrl != null ? externalUrl : "redis://127.0.0.1:" + port;
  }

  boolean isExternal() {
    return externalUrl != null;
  }

  long pid() {
    return process.pid();
  }

  /** A plain client for assertions; the caller closes it. */
  Jedis jedis() {
    return new Jedis(java.net.URI.create(url()));
  }

  /** SIGKILL, and wait until it is gone. */
  void kill() {
    requireOwned();
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGSTOP: the server keeps its socket but answers nothing, like a hung host. */
  void freeze() {
    signal("-STOP");
  }

  /** SIGCONT. */
  void thaw() {
    signal("-CONT");
  }

  private void signal(String signal) {
    requireOwned();
    try {
      Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
      if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts the server again on the same port, empty (no persistence). */
  void restart() {
    requireOwned();
    if (process.isAlive()) {
      kill();
    }
    launch();
  }

  private void requireOwned() {
    if (externalUrl != null) {
      throw new IllegalStateException("an external server (REDIS_URL) is never stopped by tests");
    }
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      signalQuietlyCont();
      kill();
    }
  }

  private void signalQuietlyCont() {
    try {
      new ProcessBuilder("kill", "-CONT", Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
    } catch (IOException | InterruptedException e) {
      // best effort: the SIGKILL that follows works on a stopped process too
    }
  }

  @Override
  public String toString() {
    return "redis-server " + url();
  }
}
