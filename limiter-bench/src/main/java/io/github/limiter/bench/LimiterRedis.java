package io.github.limiter.bench;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.redis.RedisStore;
import io.github.limiter.redis.RedisStoreBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Limiter's Redis store as a load subject: one EVALSHA per decision, server clock, a token bucket
 * of {@link RedisPolicies#RATE} per second, in the store's default dispatch mode or a forced one
 * (auto, pipelined, direct).
 *
 * <p>As a command, {@code LimiterRedis --evalsha <port>} prints the exact EVALSHA the store sends
 * for one decision, as seen by the server's MONITOR, with the client key replaced by {@code @KEY@}:
 * so that redis-benchmark can send the very same script and arguments.
 */
final class LimiterRedis implements RedisLoad.Subject {

  static final Policy POLICY =
      Policy.tokenBucket(
          "bench", Limit.bucket(RedisPolicies.RATE, Duration.ofSeconds(1), RedisPolicies.RATE));
  static final String KEY_MARKER = "@KEY@";

  private final RedisStore store;

  LimiterRedis(String host, int port, int threads) {
    this(host, port, threads, "default");
  }

  /**
   * @param dispatch {@code default} (the builder's default), {@code auto} (straight out while a
   *     connection is idle, pipelined while none is), {@code pipelined} (every decision queued and
   *     pipelined) or {@code direct} (each decision its own round trip on a pooled connection):
   *     {@code limiter.redis.pipeline.enabled} unset, {@code auto}, {@code true} or {@code false}
   */
  LimiterRedis(String host, int port, int threads, String dispatch) {
    RedisStoreBuilder builder = RedisStore.builder().node(host, port);
    switch (dispatch) {
      case "default" -> {}
      case "auto" -> builder.pipelineAuto();
      case "pipelined" -> builder.pipeline(true);
      case "direct" -> builder.pipeline(false);
      default -> throw new IllegalArgumentException("no dispatch mode '" + dispatch + "'");
    }
    store =
        builder
            .poolMaxTotal(threads)
            // Generous, so that a loaded machine shows as latency, not as fail-open admissions.
            .decisionTimeout(Duration.ofSeconds(2))
            .socketTimeout(Duration.ofSeconds(2))
            .build();
  }

  @Override
  public int decide(String key) {
    Decision decision = store.decide(POLICY, key, 1);
    if (!decision.isVerified()) {
      return UNVERIFIED;
    }
    return decision.isAllowed() ? ADMITTED : REJECTED;
  }

  @Override
  public void close() {
    store.close();
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--evalsha")) {
      printEvalsha(Integer.parseInt(args[1]), System.out);
      return;
    }
    throw new IllegalArgumentException(
        "usage: LimiterRedis --evalsha <port>, was '" + String.join(" ", args) + "'");
  }

  /** Lines {@code sha <sha>}, then one {@code arg <value>} per argument after the SHA. */
  static void printEvalsha(int port, PrintStream out) throws Exception {
    String key = "monitored-key";
    List<String> command;
    try (Socket monitor = new Socket()) {
      monitor.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      monitor.setSoTimeout(5_000);
      OutputStream request = monitor.getOutputStream();
      request.write("*1\r\n$7\r\nMONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
      request.flush();
      BufferedReader replies =
          new BufferedReader(
              new InputStreamReader(monitor.getInputStream(), StandardCharsets.UTF_8));
      if (!"+OK".equals(replies.readLine())) {
        throw new IllegalStateException("MONITOR was refused on 127.0.0.1:" + port);
      }
      CompletableFuture<Void> decided =
          CompletableFuture.runAsync(
              () -> {
                try (LimiterRedis subject = new LimiterRedis("127.0.0.1", port, 1)) {
                  if (subject.decide(key) == UNVERIFIED) {
                    throw new IllegalStateException("the store could not reach 127.0.0.1:" + port);
                  }
                }
              });
      command = null;
      for (String line = replies.readLine();
          line != null && command == null;
          line = replies.readLine()) {
        List<String> words = monitorWords(line);
        if (!words.isEmpty() && words.get(0).equalsIgnoreCase("evalsha")) {
          command = words;
        }
      }
      decided.get(10, TimeUnit.SECONDS);
    }
    if (command == null || command.size() < 3) {
      throw new IllegalStateException("no EVALSHA seen on 127.0.0.1:" + port);
    }
    out.println("sha " + command.get(1));
    for (String arg : command.subList(2, command.size())) {
      out.println("arg " + arg.replace(key, KEY_MARKER));
    }
  }

  /** The quoted words of a MONITOR line: {@code 1733.1 [0 127.0.0.1:5] "EVALSHA" "ab" "1" ...}. */
  static List<String> monitorWords(String line) throws IOException {
    List<String> words = new ArrayList<>();
    int i = line.indexOf(']');
    if (!line.startsWith("+") || i < 0) {
      return words;
    }
    while ((i = line.indexOf('"', i + 1)) >= 0) {
      StringBuilder word = new StringBuilder();
      for (i++; line.charAt(i) != '"'; i++) {
        char c = line.charAt(i);
        if (c == '\\') {
          char next = line.charAt(++i);
          if (next == 'x') {
            word.append((char) Integer.parseInt(line.substring(i + 1, i + 3), 16));
            i += 2;
          } else {
            word.append(
                switch (next) {
                  case 'n' -> '\n';
                  case 'r' -> '\r';
                  case 't' -> '\t';
                  default -> next;
                });
          }
        } else {
          word.append(c);
        }
      }
      words.add(word.toString());
    }
    return words;
  }
}
