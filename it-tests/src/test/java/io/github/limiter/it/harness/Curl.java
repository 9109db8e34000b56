package io.github.limiter.it.harness;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A curl command line from the docs, read as the shell and curl would read it, and sent as curl
 * would send it. It understands the few forms the docs use, and refuses anything else by name, so
 * that a doc edit the test cannot run fails instead of being skipped:
 *
 * <ul>
 *   <li>{@code curl [-s] [-S] [-i] [-o /dev/null] [-w FORMAT] [-H 'Name: value']... [-X METHOD] [-d
 *       DATA] URL}; {@code -d} makes it a POST with {@code application/x-www-form-urlencoded}, as
 *       curl does;
 *   <li>{@code for i in $(seq N); do CURL; done[; echo]}: the same command N times;
 *   <li>words in single quotes, in double quotes (where {@code $NAME} expands) and bare, with
 *       {@code $NAME} expanded from the variables given, and no other shell syntax.
 * </ul>
 */
public record Curl(int times, String method, URI uri, List<String[]> headers, String body) {

  private static final Pattern LOOP =
      Pattern.compile("for \\w+ in \\$\\(seq (\\d+)\\); do (.+); done(?:; echo)?");

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * Reads {@code line} with {@code variables} expanded, and {@code url} applied to the URL it names
   * (e.g. to move the docs' address to the server under test).
   *
   * @throws IllegalArgumentException naming what it cannot run
   */
  public static Curl parse(String line, Map<String, String> variables, UnaryOperator<String> url) {
    Matcher loop = LOOP.matcher(line.strip());
    if (loop.matches()) {
      Curl once = parse(loop.group(2), variables, url);
      return new Curl(
          Integer.parseInt(loop.group(1)), once.method, once.uri, once.headers, once.body);
    }
    List<String> words = words(line, variables);
    if (words.isEmpty() || !words.get(0).equals("curl")) {
      throw new IllegalArgumentException("not a curl command: " + line);
    }
    String method = null;
    String target = null;
    String body = null;
    List<String[]> headers = new ArrayList<>();
    for (int i = 1; i < words.size(); i++) {
      String word = words.get(i);
      switch (word) {
        case "-s", "-S", "-i", "-sS", "-si", "-is", "--silent", "--show-error", "--include" -> {}
        case "-H", "--header" -> {
          String header = argument(words, ++i, word, line);
          int colon = header.indexOf(':');
          if (colon <= 0) {
            throw new IllegalArgumentException("a header without 'Name:' in: " + line);
          }
          headers.add(
              new String[] {
                header.substring(0, colon).strip(), header.substring(colon + 1).strip()
              });
        }
        case "-X", "--request" -> method = argument(words, ++i, word, line);
        case "-d", "--data", "--data-raw" -> body = argument(words, ++i, word, line);
        case "-w", "--write-out" -> argument(words, ++i, word, line);
        case "-o", "--output" -> {
          if (!argument(words, ++i, word, line).equals("/dev/null")) {
            throw new IllegalArgumentException("-o other than /dev/null in: " + line);
          }
        }
        default -> {
          if (word.startsWith("-")) {
            throw new IllegalArgumentException("curl option " + word + " not understood: " + line);
          }
          if (target != null) {
            throw new IllegalArgumentException("two URLs in: " + line);
          }
          target = word;
        }
      }
    }
    if (target == null) {
      throw new IllegalArgumentException("no URL in: " + line);
    }
    if (body != null && headers.stream().noneMatch(h -> h[0].equalsIgnoreCase("Content-Type"))) {
      headers.add(new String[] {"Content-Type", "application/x-www-form-urlencoded"});
    }
    return new Curl(
        1,
        method != null ? method : body != null ? "POST" : "GET",
        URI.create(url.apply(target)),
        List.copyOf(headers),
        body);
  }

  /** Sends the command once, as curl would. */
  public HttpResponse<String> send() {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    for (String[] header : headers) {
      request.header(header[0], header[1]);
    }
    return Http.send(request);
  }

  private static String argument(List<String> words, int at, String option, String line) {
    if (at >= words.size()) {
      throw new IllegalArgumentException(option + " without its value in: " + line);
    }
    return words.get(at);
  }

  /** The shell's words of {@code line}: quotes removed, {@code $NAME} expanded. */
  static List<String> words(String line, Map<String, String> variables) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        continue;
      }
      word = word == null ? new StringBuilder() : word;
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("an unclosed ' in: " + line);
        }
        word.append(line, i + 1, end);
        i = end;
      } else if (c == '"') {
        i = doubleQuoted(line, i + 1, variables, word);
      } else if (c == '$') {
        i = variable(line, i + 1, variables, word);
      } else if (c == '\\' && i + 1 < line.length()) {
        word.append(line.charAt(++i));
      } else if (";&|<>()`*?[]{}~".indexOf(c) >= 0) {
        throw new IllegalArgumentException("shell syntax '" + c + "' not understood in: " + line);
      } else {
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  /** Appends the double-quoted text from {@code from}; the index of its closing quote. */
  private static int doubleQuoted(
      String line, int from, Map<String, String> variables, StringBuilder word) {
    for (int i = from; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        return i;
      } else if (c == '$') {
        i = variable(line, i + 1, variables, word);
      } else if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
        word.append(line.charAt(++i));
      } else if (c == '`') {
        throw new IllegalArgumentException("shell syntax '`' not understood in: " + line);
      } else {
        word.append(c);
      }
    }
    throw new IllegalArgumentException("an unclosed \" in: " + line);
  }

  /** Appends the value of the variable named from {@code from}; the index of its last character. */
  private static int variable(
      String line, int from, Map<String, String> variables, StringBuilder word) {
    boolean braced = from < line.length() && line.charAt(from) == '{';
    Matcher name = NAME.matcher(line).region(braced ? from + 1 : from, line.length());
    if (!name.lookingAt() || braced && !line.startsWith("}", name.end())) {
      throw new IllegalArgumentException("a '$' that is not $NAME in: " + line);
    }
    String value = variables.get(name.group());
    if (value == null) {
      throw new IllegalArgumentException(
          "$" + name.group() + " is not one of the documented variables " + variables.keySet());
    }
    word.append(value);
    return braced ? name.end() : name.end() - 1;
  }
}
