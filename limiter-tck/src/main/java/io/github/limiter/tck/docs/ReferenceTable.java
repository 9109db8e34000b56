package io.github.limiter.tck.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.DeclaredSettings;
import io.github.limiter.internal.config.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The reference documentation's tables of settings, in Markdown, made from their declarations
 * ({@link DeclaredSettings}, a store factory's settings). A page shows each between the two marker
 * lines of its section ({@code <!-- http-settings:begin -->} and {@code <!-- http-settings:end
 * -->}), so that no setting is written twice; each module's docs test keeps its sections equal to
 * their tables. A test library, so the shipped jars carry no Markdown generator.
 */
public final class ReferenceTable {

  private ReferenceTable() {}

  /** {@code table} in Markdown, each key shown after its prefix. */
  public static String markdown(DeclaredSettings.Table table) {
    StringBuilder markdown = new StringBuilder();
    markdown.append("| setting | type | default | example | meaning |\n");
    markdown.append("|---|---|---|---|---|\n");
    for (Setting<?> setting : table.settings()) {
      markdown
          .append("| `")
          .append(table.prefix())
          .append(setting.name())
          .append("` | ")
          .append(setting.type())
          .append(" | ")
          .append(setting.defaultText())
          .append(" | `")
          .append(setting.example())
          .append("` | ")
          .append(setting.meaning())
          .append(" |\n");
    }
    return markdown.toString();
  }

  /** Each cell of {@code setting}'s line in a reference table is filled, and fits in its cell. */
  public static void documented(Setting<?> setting) {
    assertThat(List.of(setting.type(), setting.defaultText(), setting.example(), setting.meaning()))
        .as(setting.name())
        .allSatisfy(cell -> assertThat(cell).isNotBlank().doesNotContain("|", "\n"));
  }

  /** The line that opens {@code section} in a page: {@code <!-- section:begin -->}. */
  static String begin(String section) {
    return "<!-- " + section + ":begin -->\n";
  }

  /** The line that closes {@code section} in a page. */
  static String end(String section) {
    return "<!-- " + section + ":end -->";
  }

  /**
   * Whether {@code page} shows {@code table} between the marker lines of {@code section}; when it
   * does not and {@code update} is true, it is rewritten to show it.
   *
   * @throws IllegalArgumentException if the page lacks the marker lines
   */
  public static boolean shown(Path page, String section, String table, boolean update)
      throws IOException {
    String text = Files.readString(page, StandardCharsets.UTF_8);
    String updated = withTable(text, section, table);
    if (updated.equals(text)) {
      return true;
    }
    if (update) {
      Files.writeString(page, updated, StandardCharsets.UTF_8);
      return true;
    }
    return false;
  }

  /** The project's page {@code docs/<name>}, found from the working directory upward. */
  public static Path page(String name) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs").resolve(name);
      if (Files.isRegularFile(page)) {
        return page;
      }
    }
    throw new IllegalArgumentException(
        "no docs/" + name + " above " + Path.of("").toAbsolutePath());
  }

  /** {@code page}'s text with {@code table} between the marker lines of {@code section}. */
  static String withTable(String page, String section, String table) {
    int begin = page.indexOf(begin(section));
    int end = page.indexOf(end(section));
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException(
          "expected the line " + begin(section).strip() + " and after it the line " + end(section));
    }
    return page.substring(0, begin + begin(section).length()) + table + page.substring(end);
  }
}
