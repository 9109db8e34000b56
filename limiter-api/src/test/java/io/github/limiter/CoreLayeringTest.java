package io.github.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core never uses {@code jakarta.*}, {@code javax} EE packages or {@code redis.*}: not as a
 * dependency (the enforcer bans those), and not as an import or a qualified name in its sources.
 */
class CoreLayeringTest {

  /** A package reference in code, not preceded by a letter or dot (so limiter.redis.url is fine). */
  static final Pattern FORBIDDEN = Pattern.compile(
      "(?<![\\w.$])(jakarta|redis|javax\\s*\\.\\s*(?:servlet|ws|enterprise|inject|interceptor|annotation))\\s*\\.");

  @Test
  void theCoreSourcesReferenceNoJakartaNoJavaxEeAndNoRedis() throws IOException {
    // Given the core's main sources
    Path sources = Path.of("src", "main", "java");
    assertThat(sources).as("run from the limiter-api module directory").isDirectory();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).toList();
    }

    // When each is scanned, comments and literals aside
    List<String> violations = new ArrayList<>();
    for (Path file : files) {
      violations.addAll(violations(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
    }

    // Then there is nothing to report
    assertThat(files).hasSizeGreaterThan(30);
    assertThat(violations).isEmpty();
  }

  @Test
  void theScanCatchesImportsAndQualifiedNamesButNotCommentsOrStrings() {
    String source = """
        package x;
        import jakarta.servlet.Filter;
        import static redis.clients.jedis.Protocol.DEFAULT_PORT;
        import javax.inject.Inject;
        import javax.crypto.Cipher; // the JDK's javax is fine
        /** Mentions jakarta.servlet and limiter.redis.url in a comment. */
        class X {
          String s = "redis.clients in a string";
          char c = '"';
          // jakarta.ws.rs in a line comment
          redis.clients.jedis.Jedis jedis;
          Object o = jakarta . enterprise.inject.spi.CDI.current();
          String key = "limiter.redis.url";
        }
        """;

    List<String> violations = violations("X.java", source);

    assertThat(violations).containsExactly(
        "X.java:2: jakarta.", "X.java:3: redis.", "X.java:4: javax.inject.", "X.java:11: redis.", "X.java:12: jakarta .");
  }

  static List<String> violations(String name, String source) {
    String code = codeOnly(source);
    List<String> found = new ArrayList<>();
    Matcher m = FORBIDDEN.matcher(code);
    while (m.find()) {
      int line = 1 + (int) code.substring(0, m.start()).chars().filter(c -> c == '\n').count();
      found.add(name + ":" + line + ": " + m.group());
    }
    return found;
  }

  /** The source with comments, string, text-block and char literals blanked out; newlines kept. */
  static String codeOnly(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        while (i < source.length() && source.charAt(i) != '\n') {
          i++;
        }
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = blank(source, i, end < 0 ? source.length() : end + 2, out);
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        i = blank(source, i, end < 0 ? source.length() : end + 3, out);
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < source.length() && source.charAt(j) != c) {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = blank(source, i, Math.min(source.length(), j + 1), out);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static int blank(String source, int from, int to, StringBuilder out) {
    for (int k = from; k < to; k++) {
      out.append(source.charAt(k) == '\n' ? '\n' : ' ');
    }
    return to;
  }
}
