package io.github.limiter.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The log of the server the current suite runs on: Payara Micro's {@code --logtofile} file (one per
 * deployment, see {@link PayaraLogPerDeployment}), WildFly's server.log or Open Liberty's
 * messages.log (one per suite).
 */
public final class ServerLog {

  /**
   * The address in the lines where a server says what it listens on: Payara's "bound to
   * [/127.0.0.1:8080]", WildFly's "listening on 127.0.0.1:8080" or "listening on http://...",
   * Hazelcast's "Member [127.0.0.1]:6900", and Open Liberty's "listening for requests on host
   * localhost (IPv4: 127.0.0.1) port 9080" (or "host * (IPv6) port 9080" on every interface).
   */
  private static final String HOST = "(\\[[^\\]]*]|[^\\s:\\]/\\[]+)";

  private static final Pattern LISTENER =
      Pattern.compile(
          "bound to \\[/"
              + HOST
              + ":\\d+]|listening on (?:https?://)?"
              + HOST
              + ":\\d+|Member \\[([^\\]]+)]:\\d+"
              + "|listening for requests on host \\S+\\s+\\((?:IPv[46]: )?([^)]+)\\) port \\d+");

  private ServerLog() {}

  /** Every address that {@code log} says a listener is bound to, e.g. {@code [127.0.0.1]}. */
  public static Set<String> listenerAddresses(String log) {
    Set<String> addresses = new TreeSet<>();
    Matcher matcher = LISTENER.matcher(log);
    while (matcher.find()) {
      for (int group = 1; group <= matcher.groupCount(); group++) {
        if (matcher.group(group) != null) {
          addresses.add(matcher.group(group));
        }
      }
    }
    return addresses;
  }

  /** The current log file, if the server has written one. */
  public static Optional<Path> file() {
    return newestFile(Path.of(Settings.required("it.server.log")));
  }

  /**
   * The newest file named {@code base} or {@code base.N}: Payara's file handler adds a generation
   * number to the name it is given.
   */
  private static Optional<Path> newestFile(Path base) {
    Path dir = base.getParent();
    String name = base.getFileName().toString();
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(
              f -> {
                String n = f.getFileName().toString();
                return n.equals(name) || n.startsWith(name + ".") && !n.endsWith(".lck");
              })
          .max(Comparator.comparing(ServerLog::modified));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The whole current log, or a note that there is none. */
  public static String text() {
    return file()
        .map(ServerLog::read)
        .orElse("(no server log yet at " + Settings.required("it.server.log") + ")");
  }

  /** Where the current log ends now: pass it to {@link #since}. */
  public static long mark() {
    return file().map(f -> f.toFile().length()).orElse(0L);
  }

  /**
   * What the current log gained after {@code mark}; all of it if the log was replaced since (as
   * Payara's is for each deployment).
   */
  public static String since(long mark) {
    return file()
        .map(
            log -> {
              try {
                byte[] bytes = Files.readAllBytes(log);
                int from = bytes.length < mark ? 0 : (int) mark;
                return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "(cannot read " + log + ": " + e + ")";
              }
            })
        .orElse("");
  }

  /**
   * The last line of the current log that holds {@code text}, from {@code text} on.
   *
   * @throws AssertionError if none does
   */
  public static String line(String text) {
    return line(text(), text);
  }

  public static String line(String log, String text) {
    List<String> lines = log.lines().filter(l -> l.contains(text)).toList();
    if (lines.isEmpty()) {
      throw new AssertionError("no line with '" + text + "' in the server log");
    }
    String last = lines.get(lines.size() - 1);
    return last.substring(last.indexOf(text));
  }

  /** The last {@code lines} lines of the current log. */
  public static String tail(int lines) {
    return tail(text(), lines);
  }

  public static String tail(String text, int lines) {
    List<String> all = text.lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  public static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e + ")";
    }
  }

  /** Prints the last {@code lines} lines of the current log to standard output, framed. */
  public static void print(String why, int lines) {
    printFramed(why + ": server log " + file().map(Path::toString).orElse(""), tail(lines));
  }

  /** Prints {@code text} to standard output between two lines that say what it is. */
  public static void printFramed(String title, String text) {
    System.out.println("===== " + title + " =====");
    System.out.println(text);
    System.out.println("===== end of " + title + " =====");
  }

  private static long modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}
