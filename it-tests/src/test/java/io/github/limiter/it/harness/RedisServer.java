package io.github.limiter.it.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of our own, from the PATH, on a free 127.0.0.1 port (never 6379), with no
 * persistence; stopped by its PID.
 */
public final class RedisServer implements AutoCloseable {

  private final Process process;
  private final int port;

  private RedisServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts a server and waits until it answers PING. */
  public static RedisServer start() {
    int port = FreePort.pick();
    Path dir = Path.of(Settings.required("it.target.dir"), "redis-" + port);
    try {
      Files.createDirectories(dir);
      // redis-server itself is the child, so that process.pid() is the server's PID.
      Process process = new ProcessBuilder(
              "redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "",
              "--appendonly", "no", "--dir", dir.toString(), "--logfile", dir.resolve("redis.log").toString())
          .redirectErrorStream(true)
          .redirectOutput(dir.resolve("stdout.log").toFile())
          .start();
      RedisServer server = new RedisServer(process, port);
      server.awaitPing(Duration.ofSeconds(10));
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start redis-server (is it on the PATH?)", e);
    }
  }

  public int port() {
    return port;
  }

  /** The URL for {@code limiter.redis.url}. */
  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  public long pid() {
    return process.pid();
  }

  /** Sends one command and returns the first line of the reply, e.g. {@code +OK} or {@code :3}. */
  public String command(String... args) {
    return exchange(in -> in.readLine(), args);
  }

  /** The keys matching {@code pattern} (for small test databases only). */
  public List<String> keys(String pattern) {
    return exchange(in -> {
      String header = in.readLine();
      if (header == null || !header.startsWith("*")) {
        throw new IOException("unexpected reply to KEYS: " + header);
      }
      List<String> keys = new ArrayList<>();
      for (int i = Integer.parseInt(header.substring(1)); i > 0; i--) {
        in.readLine(); // $length
        keys.add(in.readLine());
      }
      return keys;
    }, "KEYS", pattern);
  }

  private interface Reply<T> {
    T read(BufferedReader in) throws IOException;
  }

  /** One connection, one command in RESP, one reply: enough for test set-up and checks. */
  private <T> T exchange(Reply<T> reply, String... args) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
      socket.setSoTimeout(5000);
      StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
      for (String arg : args) {
        request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
      }
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      T result = reply.read(new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)));
      if (result == null) {
        throw new IOException("no reply");
      }
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("redis on port " + port + ": " + String.join(" ", args), e);
    }
  }

  public void flushAll() {
    String reply = command("FLUSHALL");
    if (!reply.equals("+OK")) {
      throw new IllegalStateException("FLUSHALL answered " + reply);
    }
  }

  private void awaitPing(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException("redis-server on port " + port + " exited with " + process.exitValue());
      }
      try {
        if (command("PING").equals("+PONG")) {
          return;
        }
      } catch (UncheckedIOException notYet) {
        if (System.nanoTime() - deadline > 0) {
          close();
          throw new IllegalStateException("redis-server on port " + port + " did not answer PING in " + timeout, notYet);
        }
      }
      Pause.millis(50);
    }
  }

  /** Stops the server by its PID: SIGTERM, then SIGKILL after 5 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
