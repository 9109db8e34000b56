package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.github.limiter.internal.store.InMemoryStoreFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md shows the table of a policy's keys made from their declarations ({@link
 * PolicyKeys}), between two marker lines. When a declaration changes, this test fails and says how
 * to bring the page up to date: run it with {@code -Dlimiter.docs.update=true}, which rewrites the
 * section between the markers.
 */
class ConfigurationDocsTest {

  static final String BEGIN = "<!-- settings-table:begin -->\n";
  static final String END = "<!-- settings-table:end -->";

  @Test
  void everySettingHasItsLineOfDocumentation() {
    List<Setting<?>> all = new ArrayList<>(PolicyKeys.TABLE);
    for (List<Setting<?>> table :
        List.of(
            CoreKeys.TOP,
            CoreKeys.ROUTE,
            CoreKeys.HTTP,
            CoreKeys.EVENTS,
            CoreKeys.METRICS,
            CoreKeys.CONFIG,
            CoreKeys.ADMIN)) {
      all.addAll(table);
    }
    all.addAll(new InMemoryStoreFactory().settings());
    assertThat(all).allSatisfy(ConfigurationDocsTest::documented);
  }

  /** Each cell of {@code setting}'s line in the reference table is filled, and fits in its cell. */
  static void documented(Setting<?> setting) {
    assertThat(List.of(setting.type(), setting.defaultText(), setting.example(), setting.meaning()))
        .as(setting.name())
        .allSatisfy(cell -> assertThat(cell).isNotBlank().doesNotContain("|", "\n"));
  }

  @Test
  void theDocsShowTheTableOfThePolicyKeys() throws IOException {
    Path page = page();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("%s has the line %s", page, BEGIN.strip()).isNotNegative();
    assertThat(end).as("%s has the line %s after it", page, END).isGreaterThan(begin);

    String table = ReferenceTable.policies();
    String shown = text.substring(begin + BEGIN.length(), end);
    if (shown.equals(table)) {
      return;
    }
    if (Boolean.getBoolean("limiter.docs.update")) {
      Files.writeString(
          page,
          text.substring(0, begin + BEGIN.length()) + table + text.substring(end),
          StandardCharsets.UTF_8);
      return;
    }
    fail(
        "%s does not show the policy keys as PolicyKeys declares them. Update it with%n"
            + "  ./mvnw -pl limiter-api -am test -Dtest=ConfigurationDocsTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dlimiter.docs.update=true%n"
            + "or paste this table between the markers:%n%s",
        page, table);
  }

  /** docs/configuration.md of the project, found from the module's directory. */
  private static Path page() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs/configuration.md");
      if (Files.isRegularFile(page)) {
        return page;
      }
    }
    throw new AssertionError("no docs/configuration.md above " + Path.of("").toAbsolutePath());
  }
}
