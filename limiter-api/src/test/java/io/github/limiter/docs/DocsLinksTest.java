package io.github.limiter.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown files resolves: the target exists, and a {@code
 * #fragment} names a heading of the target (by GitHub's slug rules) or an explicit {@code <a
 * id=...>} / {@code name=...}. Links with a scheme (https:, mailto:) and text in code are not
 * links.
 */
class DocsLinksTest {

  /** {@code [text](target)} and {@code ![alt](target)}, with an optional title after the target. */
  private static final Pattern INLINE =
      Pattern.compile("\\]\\(\\s*(<[^>]*>|[^)\\s]+)(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");

  /** A reference definition: {@code [id]: target}. */
  private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*(\\S+)");

  private static final Pattern HTML_LINK =
      Pattern.compile("<(?:a|img)\\b[^>]*?\\b(?:href|src)\\s*=\\s*[\"']([^\"']*)[\"']");

  private static final Pattern EXPLICIT_ANCHOR =
      Pattern.compile("<[a-zA-Z][^>]*?\\b(?:id|name)\\s*=\\s*[\"']([^\"']+)[\"']");

  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");

  private final Map<Path, Set<String>> anchors = new HashMap<>();

  @Test
  void everyRelativeLinkResolves() throws IOException {
    // Given every Markdown file of the repository
    Path root = repositoryRoot();
    List<Path> files = markdownFiles(root);
    assertThat(files).contains(root.resolve("README.md"));

    // When each relative link is resolved
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path file : files) {
      for (Link link : links(file)) {
        checked++;
        String problem = problem(file, link.target());
        if (problem != null) {
          broken.add(
              root.relativize(file)
                  + ":"
                  + link.line()
                  + ": "
                  + link.target()
                  + " ("
                  + problem
                  + ")");
        }
      }
    }

    // Then none is broken, and each broken one is named with its file and line
    broken.forEach(System.err::println);
    assertThat(checked).as("relative links checked").isPositive();
    assertThat(broken).as(broken.size() + " broken links").isEmpty();
  }

  @Test
  void slugsFollowGitHub() {
    assertThat(slug("Lease mode: local slices of a shared limit"))
        .isEqualTo("lease-mode-local-slices-of-a-shared-limit");
    assertThat(slug("One rule for `resolver:NAME`")).isEqualTo("one-rule-for-resolvername");
    assertThat(slug("Shaping, like nginx `limit_req`")).isEqualTo("shaping-like-nginx-limit_req");
    assertThat(slug("Limiting CDI beans with `@Limited`"))
        .isEqualTo("limiting-cdi-beans-with-limited");
    assertThat(slug("[The filter](filter.md) and **you**")).isEqualTo("the-filter-and-you");
    assertThat(slug("Tuning loop: which algorithm, which numbers"))
        .isEqualTo("tuning-loop-which-algorithm-which-numbers");
  }

  @Test
  void repeatedHeadingsAreNumbered(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    Path page = dir.resolve("page.md");
    Files.writeString(
        page, "# Page\n## Method\n```\n## Not a heading\n```\n## Method\n<a id=\"here\"></a>\n");
    assertThat(anchorsOf(page)).containsExactlyInAnyOrder("page", "method", "method-1", "here");
    assertThat(problem(page, "#method-1")).isNull();
    assertThat(problem(page, "#not-a-heading")).isNotNull();
    assertThat(problem(page, "missing.md")).isNotNull();
  }

  /** Why {@code target}, linked from {@code file}, does not resolve; null if it does. */
  private String problem(Path file, String target) {
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String fragment = hash < 0 ? "" : target.substring(hash + 1);
    path = URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
    Path resolved =
        path.isEmpty()
            ? file
            : path.startsWith("/")
                ? repositoryRoot().resolve(path.substring(1))
                : file.getParent().resolve(path).normalize();
    if (!Files.exists(resolved)) {
      return "no such file: " + shown(resolved);
    }
    if (fragment.isEmpty()) {
      return null;
    }
    Path page = Files.isDirectory(resolved) ? resolved.resolve("README.md") : resolved;
    if (!page.getFileName().toString().endsWith(".md") || !Files.isRegularFile(page)) {
      return "a fragment into a file that is not Markdown: " + shown(page);
    }
    String decoded = URLDecoder.decode(fragment, StandardCharsets.UTF_8);
    return anchorsOf(page).contains(decoded) ? null : "no heading or anchor '" + decoded + "'";
  }

  /** {@code path} relative to the repository when it is inside it. */
  private static Path shown(Path path) {
    Path root = repositoryRoot();
    return path.startsWith(root) ? root.relativize(path) : path;
  }

  private Set<String> anchorsOf(Path page) {
    return anchors.computeIfAbsent(page.toAbsolutePath().normalize(), DocsLinksTest::readAnchors);
  }

  private static Set<String> readAnchors(Path page) {
    Set<String> found = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean inFence = false;
    String fence = null;
    for (String line : lines(page)) {
      Matcher open = FENCE.matcher(line);
      if (open.find()) {
        if (!inFence) {
          inFence = true;
          fence = open.group(1);
          continue;
        } else if (open.group(1).charAt(0) == fence.charAt(0)
            && open.group(1).length() >= fence.length()) {
          inFence = false;
          continue;
        }
      }
      if (inFence) {
        continue;
      }
      Matcher explicit = EXPLICIT_ANCHOR.matcher(line);
      while (explicit.find()) {
        found.add(explicit.group(1));
      }
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug = slug(heading.group(2));
        int repeats = seen.merge(slug, 1, Integer::sum) - 1;
        found.add(repeats == 0 ? slug : slug + "-" + repeats);
      }
    }
    return found;
  }

  /**
   * GitHub's anchor for a heading: its text as rendered (links as their text, no code or emphasis
   * marks), lower-case, everything but letters, digits, spaces, hyphens and underscores dropped,
   * and each space a hyphen.
   */
  static String slug(String heading) {
    String text =
        heading
            .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
            .replaceAll("<[^>]+>", "")
            .replace("`", "")
            .replaceAll("\\*+|(?<![\\p{L}\\p{N}])_+|_+(?![\\p{L}\\p{N}])", "");
    return text.toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
        .replace(' ', '-');
  }

  record Link(int line, String target) {}

  /** The relative links of {@code file}, outside code blocks and code spans. */
  private static List<Link> links(Path file) {
    List<Link> links = new ArrayList<>();
    List<String> lines = lines(file);
    boolean inFence = false;
    String fence = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher open = FENCE.matcher(line);
      if (open.find()) {
        if (!inFence) {
          inFence = true;
          fence = open.group(1);
          continue;
        } else if (open.group(1).charAt(0) == fence.charAt(0)
            && open.group(1).length() >= fence.length()) {
          inFence = false;
          continue;
        }
      }
      if (inFence) {
        continue;
      }
      String text = CODE_SPAN.matcher(line).replaceAll("code");
      List<String> targets = new ArrayList<>();
      Matcher inline = INLINE.matcher(text);
      while (inline.find()) {
        targets.add(inline.group(1));
      }
      Matcher reference = REFERENCE.matcher(text);
      if (reference.find()) {
        targets.add(reference.group(1));
      }
      Matcher html = HTML_LINK.matcher(text);
      while (html.find()) {
        targets.add(html.group(1));
      }
      for (String target : targets) {
        String bare =
            target.startsWith("<") && target.endsWith(">")
                ? target.substring(1, target.length() - 1)
                : target;
        if (!bare.isEmpty() && !SCHEME.matcher(bare).find()) {
          links.add(new Link(i + 1, bare));
        }
      }
    }
    return links;
  }

  private static List<Path> markdownFiles(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(path -> path.getFileName().toString().endsWith(".md"))
          .filter(path -> !ignored(root.relativize(path)))
          .sorted()
          .toList();
    }
  }

  /** Build output, hidden directories (.git, .mvn) and installed packages are not documentation. */
  private static boolean ignored(Path relative) {
    for (Path part : relative.getParent() == null ? List.<Path>of() : relative.getParent()) {
      String name = part.toString();
      if (name.startsWith(".") || name.equals("target") || name.equals("node_modules")) {
        return true;
      }
    }
    return false;
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The directory holding {@code mvnw}, walking up from the working directory. */
  private static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("mvnw"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no mvnw above " + Path.of("").toAbsolutePath() + ": run the test inside the repository");
  }
}
