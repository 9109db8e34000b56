package io.github.limiter.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's own accounting, over a plain RESP connection: {@code CONFIG RESETSTAT} before a run
 * and {@code INFO commandstats} after it, so that a result can say how many commands, and how many
 * microseconds of the server's single core, one decision cost; and {@code INFO cpu} on both sides,
 * for how busy the server process was.
 */
final class RedisAdmin implements AutoCloseable {

  /** One command's totals: calls and microseconds spent executing them. */
  record CommandStats(long calls, long usec) {}

  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;

  RedisAdmin(int port) throws IOException {
    socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
    socket.setSoTimeout(5_000);
    out = socket.getOutputStream();
    in = new BufferedInputStream(socket.getInputStream());
  }

  void resetStats() throws IOException {
    String reply = call("CONFIG", "RESETSTAT");
    if (!reply.equals("OK")) {
      throw new IllegalStateException("CONFIG RESETSTAT answered '" + reply + "'");
    }
  }

  /** Per command, e.g. {@code evalsha}: calls and usec since the last reset. */
  Map<String, CommandStats> commandStats() throws IOException {
    Map<String, CommandStats> stats = new LinkedHashMap<>();
    for (String line : call("INFO", "commandstats").split("\r\n")) {
      // cmdstat_evalsha:calls=10,usec=200,usec_per_call=20.00,rejected_calls=0,failed_calls=0
      if (line.startsWith("cmdstat_")) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        long calls = 0;
        long usec = 0;
        for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
          String[] kv = field.split("=");
          if (kv[0].equals("calls")) {
            calls = Long.parseLong(kv[1]);
          } else if (kv[0].equals("usec")) {
            usec = Long.parseLong(kv[1]);
          }
        }
        stats.put(name, new CommandStats(calls, usec));
      }
    }
    return stats;
  }

  /** CPU seconds the server process has used since it started, user and system. */
  double cpuSeconds() throws IOException {
    double seconds = 0;
    for (String line : call("INFO", "cpu").split("\r\n")) {
      if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
        seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1));
      }
    }
    return seconds;
  }

  private String call(String... words) throws IOException {
    StringBuilder request = new StringBuilder().append('*').append(words.length).append("\r\n");
    for (String word : words) {
      request.append('$').append(word.length()).append("\r\n").append(word).append("\r\n");
    }
    out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String head = line();
    switch (head.charAt(0)) {
      case '+':
        return head.substring(1);
      case '$':
        int length = Integer.parseInt(head.substring(1));
        byte[] body = in.readNBytes(length + 2);
        return new String(body, 0, length, StandardCharsets.UTF_8);
      default:
        throw new IllegalStateException(String.join(" ", words) + " answered '" + head + "'");
    }
  }

  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("connection closed by 127.0.0.1:" + socket.getPort());
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
