package io.github.limiter.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's shape, checked so that it cannot drift: one meaning per class name, files a
 * person can read, adapters that know no per-request scope, and unit tests that never sleep.
 */
class LayoutTest {

  private static final Path ROOT = root();

  /** This file: the scans must find it, or they look in the wrong place and prove nothing. */
  private static final String SELF =
      "limiter-api/src/test/java/io/github/limiter/layout/LayoutTest.java";

  /** A product file the scans must find. */
  private static final String A_PRODUCT_FILE =
      "limiter-api/src/main/java/io/github/limiter/Limiter.java";

  /** The servlet filter's per-request class, kept to what one reader takes in at once. */
  private static final String FILTER_REQUEST_CLASS =
      "limiter-servlet/src/main/java/io/github/limiter/servlet/FilterRequests.java";

  /** The core's per-request scopes, which only the core's request frame opens. */
  private static final Pattern PER_REQUEST_SCOPE =
      Pattern.compile("\\b(?:CostReport|ChargedPolicies|AdmittedDecisions)\\b");

  /** A type declaration, top-level or nested, once comments and strings are gone. */
  private static final Pattern TYPE =
      Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");

  /** What is not code: a text block, a string, a char literal, a block or a line comment. */
  private static final Pattern NOT_CODE =
      Pattern.compile(
          "(?s)\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\(?:u+\\p{XDigit}{4}|[0-7]{1,3}|.)|[^'\\\\\\n])'|/\\*.*?\\*/|//[^\\n]*");

  /**
   * The unit-test files that may wait on real time, each with the reason. Waiting for an event of a
   * real process goes through the test kit's {@code Await}, which reads the event and returns as
   * soon as it has happened, and is not a sleep.
   */
  private static final Map<String, String> SLEEPERS =
      Map.of(
          "limiter-redis/src/test/java/io/github/limiter/redis/Load.java",
          "a load generator for the outage tests: 1 ms between decisions keeps the 2 cores free"
              + " for the redis-server being killed and started, and the samples few, while the"
              + " breaker fails decisions in microseconds");

  /** A wait on real time: a sleep, a park, or the test kit's {@code Pause}. */
  private static final Pattern SLEEP =
      Pattern.compile(
          "Thread\\.sleep|TimeUnit\\.[A-Z]+\\.sleep|(?<![\\w.])sleep\\s*\\(|LockSupport\\.park"
              + "|\\bPause\\.");

  /**
   * A top-level name is declared once, and no nested type takes one. Nested types may share a name
   * among themselves ({@code InMemoryStore.Builder}, {@code Trace.Builder}): they are always read
   * through their outer type.
   */
  @Test
  void noTwoProductClassesShareASimpleName() {
    Map<String, List<String>> topLevel = new TreeMap<>();
    Map<String, List<String>> nested = new TreeMap<>();
    for (Path file : productFiles()) {
      String top = file.getFileName().toString().replace(".java", "");
      Matcher m = TYPE.matcher(code(file));
      while (m.find()) {
        (m.group(1).equals(top) ? topLevel : nested)
            .computeIfAbsent(m.group(1), k -> new ArrayList<>())
            .add(relative(file));
      }
    }
    Map<String, List<String>> shared = new TreeMap<>();
    topLevel.forEach(
        (name, files) -> {
          List<String> all = new ArrayList<>(files);
          all.addAll(nested.getOrDefault(name, List.of()));
          if (all.size() > 1) {
            shared.put(name, all);
          }
        });
    assertThat(shared).as("product type names declared more than once").isEmpty();
  }

  @Test
  void noProductFileIsOver600Lines() {
    Map<String, Integer> long_ = new TreeMap<>();
    for (Path file : productFiles()) {
      int lines = lines(file).size();
      if (lines > 600 || relative(file).equals(FILTER_REQUEST_CLASS) && lines > 250) {
        long_.put(relative(file), lines);
      }
    }
    assertThat(long_)
        .as("product files over 600 lines, or the filter's request class over 250")
        .isEmpty();
  }

  @Test
  void adaptersNameNoPerRequestScope() {
    Map<String, Set<String>> named = new TreeMap<>();
    for (String module : List.of("limiter-servlet", "limiter-cdi")) {
      List<Path> files = javaFiles(module, "src/main/java");
      assertThat(files).as(module + " sources").isNotEmpty();
      for (Path file : files) {
        Matcher m = PER_REQUEST_SCOPE.matcher(code(file));
        while (m.find()) {
          named.computeIfAbsent(relative(file), k -> new TreeSet<>()).add(m.group());
        }
      }
    }
    assertThat(named).as("adapter sources that name a per-request scope of the core").isEmpty();
  }

  @Test
  void unitTestsSleepOnlyToAwaitARealProcessEvent() {
    Set<String> sleeping = new TreeSet<>();
    List<Path> tests = javaFiles("src/test/java");
    assertThat(tests).as("the test files found").extracting(LayoutTest::relative).contains(SELF);
    for (Path file : tests) {
      String path = relative(file);
      // Integration tests (it-tests, and *IT run by failsafe) meet real servers on real time.
      boolean integration = path.startsWith("it-tests/") || path.endsWith("IT.java");
      if (!integration && SLEEP.matcher(code(file)).find()) {
        sleeping.add(path);
      }
    }
    assertThat(sleeping)
        .as("unit-test files that sleep: drive time with a manual NanoClock instead")
        .isSubsetOf(SLEEPERS.keySet());
    assertThat(SLEEPERS.keySet())
        .as("allowed sleepers that no longer sleep: take them off the list")
        .isSubsetOf(sleeping);
    assertThat(SLEEPERS).hasSizeLessThanOrEqualTo(5);
  }

  /**
   * The static fields of product code that may hold live instances, each with the reason: a
   * runtime's parts (its store, live limits, insight, outbound policies) live in the one runtime of
   * the application, never in a static field, so that two applications of one server, or two
   * runtimes of one test, never share them.
   */
  private static final Map<String, String> LIVE_STATICS =
      Map.of(
          "limiter-tck/src/main/java/io/github/limiter/tck/redis/RedisServer.java RUNNING",
          "the test kit's redis-server processes, which a shutdown hook stops if a test leaves one"
              + " running",
          "limiter-tck/src/main/java/io/github/limiter/tck/redis/RedisExecutable.java resolved",
          "the test kit's redis-server executable, found once per run",
          "limiter-tck/src/main/java/io/github/limiter/tck/browser/Chromium.java toldWhySkipped",
          "the test kit says once per run why browser tests are skipped",
          "limiter-demo/src/main/java/io/github/limiter/demo/PartnerCallResource.java CLIENTS",
          "the demo's REST clients, one per partner address; they hold no limiter state");

  /** The types of a runtime's live parts, as a static field's type would name them. */
  private static final Pattern LIVE_TYPE =
      Pattern.compile(
          "\\b(?:LimiterRuntime|LiveLimits|PolicyVersions|KeyOverrides|LiveStore|RateLimitStore"
              + "|PolicyStore|Peek|LiveVersions|UpstreamBlocks|Limiter|PolicyLimiter|Insight"
              + "|Recorder|Outbound|OutboundLimiter|AdaptiveGates?|ConfigRefresh|Admission)\\b");

  /** A static field: its modifiers, its type, its name, and whether an initializer follows. */
  private static final Pattern STATIC_FIELD =
      Pattern.compile(
          "\\bstatic\\s+((?:final\\s+|volatile\\s+|transient\\s+)*)([\\w.<>\\[\\]?, ]+?)\\s+(\\w+)\\s*(=\\s*[^;]*|;)");

  /** A registry: a mutable concurrent collection made empty, to be filled at run time. */
  private static final Pattern REGISTRY =
      Pattern.compile(
          "=\\s*(?:new\\s+(?:CopyOnWrite|Concurrent)\\w*|ConcurrentHashMap\\.newKeySet)");

  @Test
  void noStaticFieldHoldsLiveRuntimeInstances() {
    Map<String, String> live = new TreeMap<>();
    for (Path file : productFiles()) {
      Matcher m = STATIC_FIELD.matcher(code(file));
      while (m.find()) {
        boolean mutable = !m.group(1).contains("final");
        if (mutable
            || LIVE_TYPE.matcher(m.group(2)).find()
            || REGISTRY.matcher(m.group(4)).find()) {
          live.put(relative(file) + " " + m.group(3), m.group(0).strip());
        }
      }
    }
    assertThat(live.keySet())
        .as("static fields that may hold live instances: %s", live)
        .isEqualTo(LIVE_STATICS.keySet());
  }

  /** The one place that builds a {@code Rule}: every adapter's rules are compiled alike. */
  private static final String RULE_COMPILER =
      "limiter-api/src/main/java/io/github/limiter/internal/admission/RuleCompiler.java";

  @Test
  void onlyTheRuleCompilerBuildsARule() {
    Set<String> building = new TreeSet<>();
    for (Path file : productFiles()) {
      if (Pattern.compile("\\bnew\\s+Rule\\s*\\(").matcher(code(file)).find()) {
        building.add(relative(file));
      }
    }
    assertThat(building).as("product files that build a Rule").containsExactly(RULE_COMPILER);
  }

  /** A qualified export of the core's module-info: the package, and the modules it is for. */
  private static final Pattern QUALIFIED_EXPORT =
      Pattern.compile("exports\\s+([\\w.]+)\\s+to\\s+([^;]+);");

  @Test
  void theCoreExportsAPackageOnlyToModulesThatUseIt() {
    String moduleInfo = code(ROOT.resolve("limiter-api/src/main/java/module-info.java"));
    Map<String, String> unused = new TreeMap<>();
    Matcher m = QUALIFIED_EXPORT.matcher(moduleInfo);
    assertThat(m.find()).as("qualified exports found").isTrue();
    m.reset();
    while (m.find()) {
      String pkg = m.group(1);
      Pattern named = Pattern.compile("\\b" + Pattern.quote(pkg) + "\\.[A-Z*]");
      for (String target : m.group(2).split(",")) {
        String module = target.strip();
        // io.github.limiter.servlet is the module of limiter-servlet, and so on
        String dir = "limiter-" + module.substring(module.lastIndexOf('.') + 1);
        List<Path> files = javaFiles(dir, "src/main/java");
        assertThat(files).as("sources of " + module + " in " + dir).isNotEmpty();
        if (files.stream().noneMatch(f -> named.matcher(code(f)).find())) {
          unused.put(pkg + " to " + module, dir + " names nothing of it");
        }
      }
    }
    assertThat(unused).as("qualified exports that the module does not use").isEmpty();
  }

  private static List<Path> productFiles() {
    List<Path> files = javaFiles("src/main/java");
    assertThat(files)
        .as("the product files found")
        .extracting(LayoutTest::relative)
        .contains(A_PRODUCT_FILE, FILTER_REQUEST_CLASS);
    return files;
  }

  private static List<Path> javaFiles(String sourceDir) {
    try (Stream<Path> modules = Files.list(ROOT)) {
      return modules
          .filter(Files::isDirectory)
          .flatMap(module -> javaFiles(module.getFileName().toString(), sourceDir).stream())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> javaFiles(String module, String sourceDir) {
    Path dir = ROOT.resolve(module).resolve(sourceDir);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The file with its comments, strings, text blocks and char literals blanked, in one scan. */
  private static String code(Path file) {
    return NOT_CODE.matcher(read(file)).replaceAll(" ");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String relative(Path file) {
    return ROOT.relativize(file).toString().replace('\\', '/');
  }

  /** The repository root: the nearest directory, from here up, that holds {@code mvnw}. */
  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no mvnw above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }
}
