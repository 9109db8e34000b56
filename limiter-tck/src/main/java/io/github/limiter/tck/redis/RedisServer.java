package io.github.limiter.tck.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A real redis-server process on a free 127.0.0.1 port (never 6379), without persistence, for
 * tests. The binary is the PATH's redis-server if there is one, else the Redis 7.0.15 that {@code
 * org.signal:embedded-redis} ships, extracted to {@code target/redis/bin}. It is started directly,
 * not through a shell, so that the process held is the server and every stop goes to its PID. Its
 * working directory and log are under {@code target/redis/<name>-<port>} of the current directory
 * (the module's, under Maven).
 *
 * <pre>{@code
 * try (RedisServer redis = RedisServer.start("mine")) {
 *   RedisStore store = RedisStore.builder().url(redis.url()).build();
 *   ...
 *   redis.kill();     // SIGKILL, as in an outage
 *   redis.restart();  // the same port, empty
 * }
 * }</pre>
 *
 * <p>Servers still running when the JVM exits are killed by a shutdown hook, so that a test that
 * forgets {@link #close()} leaves no process behind.
 */
public final class RedisServer implements AutoCloseable {

  /**
   * The environment variable naming an external standalone server, e.g. {@code
   * redis://10.1.2.3:6380}.
   */
  public static final String REDIS_URL = "REDIS_URL";

  private static final Path ROOT = Path.of(System.getProperty("user.dir"), "target", "redis");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final Set<RedisServer> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> List.copyOf(RUNNING).forEach(RedisServer::close), "redis-server-reaper"));
  }

  private final String host;
  private final int port;
  private final Path dir;
  private final List<String> extraArgs;
  private final TlsCertificates tls;
  private final String externalUrl;

  /** For TLS: the certificates' context, or the JVM's default for an external rediss:// server. */
  private final SSLContext sslContext;

  /**
   * AUTH from an external URL's user info: {@code [user, password]}, {@code [password]}, or empty.
   */
  private final List<String> auth;

  private volatile Process process;

  private RedisServer(
      String host,
      int port,
      Path dir,
      List<String> extraArgs,
      TlsCertificates tls,
      String externalUrl,
      SSLContext sslContext,
      List<String> auth) {
    this.host = host;
    this.port = port;
    this.dir = dir;
    this.extraArgs = extraArgs;
    this.tls = tls;
    this.externalUrl = externalUrl;
    this.sslContext = sslContext;
    this.auth = auth;
  }

  /**
   * Starts a server and waits until it answers PING (or NOAUTH, for a server that requires AUTH).
   *
   * @param name names the server's directory, e.g. {@code outage}
   * @param extraArgs more redis-server options, e.g. {@code "--cluster-enabled", "yes"}
   * @throws IllegalStateException if it does not answer within 10 s; the message names its log
   */
  public static RedisServer start(String name, String... extraArgs) {
    return launched(name, null, extraArgs);
  }

  /**
   * Starts a server that speaks TLS only ({@code --port 0 --tls-port <port>}) with {@code tls}'s
   * server certificate, not asking clients for one; {@link #url()} is then {@code rediss://}.
   */
  public static RedisServer startTls(String name, TlsCertificates tls, String... extraArgs) {
    return launched(name, tls, extraArgs);
  }

  private static RedisServer launched(String name, TlsCertificates tls, String... extraArgs) {
    int port = freePort();
    RedisServer server =
        new RedisServer(
            "127.0.0.1",
            port,
            ROOT.resolve(name + "-" + port),
            List.of(extraArgs),
            tls,
            null,
            tls == null ? null : tls.sslContext(),
            List.of());
    server.launch();
    return server;
  }

  /**
   * The server that {@code REDIS_URL} names, if set, else one started as {@code name}: for tests
   * that only decide and may run against a server of the developer's choosing.
   */
  public static RedisServer fromEnvironmentOrStart(String name) {
    String url = System.getenv(REDIS_URL);
    return url == null || url.isBlank() ? start(name) : external(url);
  }

  /**
   * A server this JVM did not start, such as the one {@code REDIS_URL} names: tests may decide
   * against it, but {@link #kill()}, {@link #restart()} and the like refuse, and {@link #close()}
   * leaves it running. {@link #call} sends AUTH with the URL's user and password, if any, and
   * speaks TLS with the JVM's default trust for {@code rediss://}.
   *
   * @throws IllegalArgumentException if {@code url} is not {@code redis://host:port...} or {@code
   *     rediss://...}
   */
  public static RedisServer external(String url) {
    URI uri;
    try {
      uri = URI.create(url.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          REDIS_URL + ": expected redis://host:port, was '" + url + "'", e);
    }
    if (!("redis".equals(uri.getScheme()) || "rediss".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          REDIS_URL + ": expected redis://host:port, was '" + url + "'");
    }
    SSLContext context = null;
    if ("rediss".equals(uri.getScheme())) {
      try {
        context = SSLContext.getDefault();
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("no default TLS context for " + REDIS_URL + "=" + url, e);
      }
    }
    List<String> auth = new ArrayList<>();
    String info = uri.getRawUserInfo();
    if (info != null) {
      int colon = info.indexOf(':');
      if (colon > 0) {
        auth.add(decode(info.substring(0, colon)));
      }
      auth.add(decode(colon < 0 ? info : info.substring(colon + 1)));
    }
    return new RedisServer(
        uri.getHost(),
        uri.getPort() == -1 ? 6379 : uri.getPort(),
        null,
        List.of(),
        null,
        url.trim(),
        context,
        List.copyOf(auth));
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /**
   * A port on 127.0.0.1 that was free a moment ago: never 6379, and with {@code port + 10000} in
   * range for a cluster bus.
   */
  public static int freePort() {
    for (int attempt = 0; attempt < 20; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        if (port != 6379 && port + 10_000 <= 65_535) {
          return port;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("no free port on 127.0.0.1", e);
      }
    }
    throw new IllegalStateException("no usable free port on 127.0.0.1 in 20 attempts");
  }

  private void launch() {
    Path executable = RedisExecutable.get(ROOT.resolve("bin"));
    List<String> command = new ArrayList<>(List.of(executable.toString(), "--bind", "127.0.0.1"));
    if (tls == null) {
      command.addAll(List.of("--port", Integer.toString(port)));
    } else {
      command.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port)));
      command.addAll(tls.serverArgs());
    }
    command.addAll(List.of("--save", "", "--appendonly", "no", "--dir", dir.toString()));
    command.addAll(extraArgs);
    try {
      Files.createDirectories(dir);
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + executable, e);
    }
    RUNNING.add(this);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!answersPing()) {
      if (!process.isAlive() || System.nanoTime() - deadline > 0) {
        String exit = process.isAlive() ? "still running" : "exited with " + process.exitValue();
        close();
        throw new IllegalStateException(
            "redis-server on port "
                + port
                + " did not answer PING within "
                + START_TIMEOUT
                + " ("
                + exit
                + "); its log:\n"
                + logTail());
      }
      Pause.millis(20);
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log() + ": " + e + ")";
    }
  }

  /** Whether the server answers PING now; NOAUTH counts as an answer. */
  public boolean answersPing() {
    try {
      return "PONG".equals(exchange(200, 500, "PING"));
    } catch (RedisReplyException e) {
      return e.code().equals("NOAUTH");
    } catch (UncheckedIOException e) {
      return false;
    }
  }

  /**
   * Sends one command on a connection of its own and returns the reply: a {@link String} for a
   * status or bulk reply, a {@link Long} for an integer, a {@link List} for an array, null for a
   * null reply. For set-up and checks, not for load: each call connects anew.
   *
   * @throws RedisReplyException for an error reply, e.g. NOAUTH on a server that requires AUTH
   * @throws UncheckedIOException if the server cannot be reached or does not answer within 5 s
   */
  public Object call(String... command) {
    return exchange(1_000, 5_000, command);
  }

  private Object exchange(int connectMillis, int readMillis, String... command) {
    try (Socket socket = connect(connectMillis)) {
      socket.setSoTimeout(readMillis);
      Resp.Connection connection = new Resp.Connection(socket);
      if (!auth.isEmpty()) {
        List<String> login = new ArrayList<>(List.of("AUTH"));
        login.addAll(auth);
        connection.call(login.toArray(String[]::new));
      }
      return connection.call(command);
    } catch (IOException e) {
      throw new UncheckedIOException(this + ": " + String.join(" ", command), e);
    }
  }

  private Socket connect(int timeoutMillis) throws IOException {
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(host, port), timeoutMillis);
      if (sslContext == null) {
        return plain;
      }
      plain.setSoTimeout(timeoutMillis);
      SSLSocket secure =
          (SSLSocket) sslContext.getSocketFactory().createSocket(plain, host, port, true);
      // Check the certificate's name too, as a client should: the test certificates name 127.0.0.1.
      SSLParameters parameters = secure.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      secure.setSSLParameters(parameters);
      secure.startHandshake();
      return secure;
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  /** {@code INFO <section>}, e.g. {@code replication} or {@code commandstats}. */
  public String info(String section) {
    return (String) call("INFO", section);
  }

  /**
   * One field of {@code INFO <section>}, e.g. {@code info("replication", "role")}; empty if absent.
   */
  public String info(String section, String field) {
    String prefix = field + ":";
    return Arrays.stream(info(section).split("\r\n"))
        .filter(line -> line.startsWith(prefix))
        .map(line -> line.substring(prefix.length()))
        .findFirst()
        .orElse("");
  }

  /**
   * One command's counters from {@code INFO commandstats}; Redis before 6.2 reports no errors (0).
   */
  public record CommandStats(long calls, long failedCalls, long rejectedCalls) {}

  /**
   * {@code INFO commandstats} by command name in lower case, e.g. {@code evalsha}, {@code mget} or
   * {@code config|resetstat}. Commands that scripts call count under their own names.
   */
  public Map<String, CommandStats> commandStats() {
    Map<String, CommandStats> stats = new TreeMap<>();
    for (String line : info("commandstats").split("\r\n")) {
      int colon = line.indexOf(':');
      if (!line.startsWith("cmdstat_") || colon < 0) {
        continue;
      }
      Map<String, Long> fields = new HashMap<>();
      for (String field : line.substring(colon + 1).split(",")) {
        String[] kv = field.split("=", 2);
        if (kv.length == 2 && kv[1].matches("\\d+")) {
          fields.put(kv[0], Long.parseLong(kv[1]));
        }
      }
      stats.put(
          line.substring("cmdstat_".length(), colon),
          new CommandStats(
              fields.getOrDefault("calls", 0L),
              fields.getOrDefault("failed_calls", 0L),
              fields.getOrDefault("rejected_calls", 0L)));
    }
    return stats;
  }

  /** Deletes every key of every database. */
  public void flushAll() {
    call("FLUSHALL");
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  /**
   * {@code redis://127.0.0.1:<port>}, {@code rediss://...} for TLS, or the external URL as given.
   */
  public String url() {
    if (externalUrl != null) {
      return externalUrl;
    }
    return (tls == null ? "redis://" : "rediss://") + host + ":" + port;
  }

  /** Whether this JVM did not start the server (see {@link #external}). */
  public boolean isExternal() {
    return externalUrl != null;
  }

  /** The server's PID. */
  public long pid() {
    requireOwned();
    return process.pid();
  }

  /** The server's log file. */
  public Path log() {
    requireOwned();
    return dir.resolve("redis.log");
  }

  /** Whether the process is running (it may be frozen). */
  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL to the server's PID, as in a crash, and waits until it is gone. */
  public void kill() {
    requireOwned();
    Process p = process;
    p.destroyForcibly();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "redis-server " + p.pid() + " still running 10 s after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGSTOP: the server keeps its sockets but answers nothing, like a hung host. */
  public void freeze() {
    signal("STOP");
  }

  /** SIGCONT, after {@link #freeze()}. */
  public void thaw() {
    signal("CONT");
  }

  private void signal(String signal) {
    requireOwned();
    long pid = process.pid();
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
      if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run kill -" + signal + " " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during kill -" + signal + " " + pid, e);
    }
  }

  /** Kills the server if it runs, and starts it again on the same port and options, empty. */
  public void restart() {
    requireOwned();
    if (process.isAlive()) {
      thawQuietly();
      kill();
    }
    launch();
  }

  private void requireOwned() {
    if (externalUrl != null) {
      throw new IllegalStateException(
          "an external server (" + externalUrl + ") is never stopped or inspected by tests");
    }
  }

  /**
   * Stops the server by its PID (SIGCONT in case it is frozen, then SIGKILL); a no-op for an
   * external one.
   */
  @Override
  public void close() {
    Process p = process;
    if (externalUrl == null && p != null && p.isAlive()) {
      thawQuietly();
      kill();
    }
    RUNNING.remove(this);
  }

  private void thawQuietly() {
    try {
      new ProcessBuilder("kill", "-CONT", Long.toString(process.pid()))
          .start()
          .waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      // The SIGKILL that follows stops a frozen process as well.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "redis-server " + url();
  }
}
