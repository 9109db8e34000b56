package io.github.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core never uses {@code jakarta.*}, {@code javax} EE packages or {@code redis.*}: not as a
 * dependency (the enforcer bans those), and not as an import or a qualified name in its sources.
 * Its packages form no cycle, the API packages use no internal one, and the module exports only the
 * API, whose signatures name no internal type.
 */
class CoreLayeringTest {

  static final Path CLASSES = Path.of("target", "classes");

  /** The packages a user or a store author needs; everything else is {@code internal}. */
  static final Set<String> API =
      Set.of("io.github.limiter", "io.github.limiter.spi", "io.github.limiter.memory");

  /**
   * The in-memory store evaluates the algorithms, and the API's enums are looked up by their
   * configuration names through the one lookup of every enum (a package that uses nothing else of
   * the core); nothing else in the API uses an internal package.
   */
  static final Map<String, Set<String>> API_USES_INTERNAL =
      Map.of(
          "io.github.limiter.memory", Set.of("io.github.limiter.internal.algorithm"),
          "io.github.limiter", Set.of("io.github.limiter.internal.names"));

  @Test
  void theCorePackagesFormNoCycle() {
    // Given the package graph of the compiled core
    PackageGraph graph = PackageGraph.of(CLASSES);

    // Then the scan saw the packages and a known use, and there is no cycle
    assertThat(graph.uses).hasSizeGreaterThanOrEqualTo(8);
    assertThat(graph.uses.get("io.github.limiter.memory")).contains("io.github.limiter");
    assertThat(graph.cycles()).isEmpty();
  }

  @Test
  void theCycleCheckFindsEveryCycle() {
    // Given a graph with a three-package cycle, a two-package cycle and an acyclic tail
    PackageGraph graph =
        new PackageGraph(
            Map.of(
                "a",
                Set.of("b"),
                "b",
                Set.of("c"),
                "c",
                Set.of("a", "d"),
                "d",
                Set.of("e"),
                "e",
                Set.of("d", "f"),
                "f",
                Set.of()));

    // When its cycles are found
    List<Set<String>> cycles = graph.cycles();

    // Then both are reported, and nothing else
    assertThat(cycles).containsExactlyInAnyOrder(Set.of("a", "b", "c"), Set.of("d", "e"));
  }

  @Test
  void theCycleCheckReadsUsesFromClassFiles() throws IOException {
    // Given a compiled class that uses a type of another package only in a method signature
    byte[] limiter = Files.readAllBytes(CLASSES.resolve("io/github/limiter/Limiter.class"));

    // Then its constant pool names that type
    assertThat(PackageGraph.utf8Constants(limiter))
        .anySatisfy(c -> assertThat(c).contains("io/github/limiter/RateLimitStore"));
  }

  @Test
  void apiPackagesUseNoInternalPackage() {
    PackageGraph graph = PackageGraph.of(CLASSES);
    for (String api : API) {
      Set<String> internal = new TreeSet<>(graph.uses.get(api));
      internal.removeIf(p -> !p.contains(".internal"));
      assertThat(internal).as(api).isSubsetOf(API_USES_INTERNAL.getOrDefault(api, Set.of()));
    }
  }

  @Test
  void theModuleExportsOnlyTheApiAndTheInternalPackagesOnlyToTheProjectsModules()
      throws IOException {
    ModuleDescriptor module;
    try (InputStream in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
      module = ModuleDescriptor.read(in);
    }
    Set<String> unqualified = new TreeSet<>();
    for (ModuleDescriptor.Exports export : module.exports()) {
      if (export.isQualified()) {
        assertThat(export.source()).contains(".internal.");
        assertThat(export.targets())
            .allSatisfy(target -> assertThat(target).startsWith("io.github.limiter."));
      } else {
        unqualified.add(export.source());
      }
    }
    assertThat(unqualified).isEqualTo(API);
    assertThat(module.packages())
        .allSatisfy(p -> assertThat(API.contains(p) || p.contains(".internal")).as(p).isTrue());
  }

  @Test
  void theApiHasAtMostTwentyFivePublicTypesAndTheirSignaturesNameNoInternalType()
      throws IOException {
    List<Class<?>> types = apiTypes();
    // 19 for the limiter, its policies, decisions, the store contract and the in-memory store, plus
    // KeyResolver and the RequestView it reads, and ActualCost, which a request reports through,
    // plus the store's three optional views that a store author implements (LiveVersions, Peek,
    // UpstreamBlocks; they replaced RateLimitStore's methods that refused): a new public type must
    // displace one.
    assertThat(types).hasSizeBetween(10, 25);
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : types) {
      List<Class<?>> named = new ArrayList<>(Arrays.asList(type.getInterfaces()));
      named.add(type.getSuperclass());
      for (Method m : type.getDeclaredMethods()) {
        if (visible(m)) {
          named.add(m.getReturnType());
          named.addAll(Arrays.asList(m.getParameterTypes()));
          named.addAll(Arrays.asList(m.getExceptionTypes()));
        }
      }
      Arrays.stream(type.getDeclaredConstructors())
          .filter(CoreLayeringTest::visible)
          .forEach(c -> named.addAll(Arrays.asList(c.getParameterTypes())));
      Arrays.stream(type.getDeclaredFields())
          .filter(CoreLayeringTest::visible)
          .forEach(f -> named.add(f.getType()));
      for (Class<?> n : named) {
        if (n != null && n.getName().contains(".internal.")) {
          leaks.add(type.getName() + " names " + n.getName());
        }
      }
    }
    assertThat(leaks).isEmpty();
  }

  /** The public types, top level and nested, of the exported packages. */
  static List<Class<?>> apiTypes() throws IOException {
    List<Class<?>> types = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(CLASSES)) {
      for (Path file : walk.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name =
            CLASSES.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        if (name.endsWith("-info")) {
          continue;
        }
        Class<?> type = Class.forName(name, false, CoreLayeringTest.class.getClassLoader());
        boolean isPublic =
            !type.isAnonymousClass() && !type.isLocalClass() && API.contains(type.getPackageName());
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
          isPublic &= Modifier.isPublic(t.getModifiers());
        }
        if (isPublic) {
          types.add(type);
        }
      }
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
    return types;
  }

  private static boolean visible(Member member) {
    return (member.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED)) != 0;
  }

  /**
   * A package reference in code, not preceded by a letter or dot (so limiter.redis.url is fine).
   */
  static final Pattern FORBIDDEN =
      Pattern.compile(
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
      violations.addAll(
          violations(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
    }

    // Then there is nothing to report
    assertThat(files).hasSizeGreaterThan(30);
    assertThat(violations).isEmpty();
  }

  @Test
  void theScanCatchesImportsAndQualifiedNamesButNotCommentsOrStrings() {
    String source =
        """
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

    assertThat(violations)
        .containsExactly(
            "X.java:2: jakarta.",
            "X.java:3: redis.",
            "X.java:4: javax.inject.",
            "X.java:11: redis.",
            "X.java:12: jakarta .");
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
