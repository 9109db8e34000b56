package io.github.limiter.internal.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference documentation's tables of settings, in Markdown, made from their declarations.
 * docs/configuration.md shows each between the two marker lines of its section ({@code <!--
 * http-settings:begin -->} and {@code <!-- http-settings:end -->}), so that no setting is written
 * twice; {@code ConfigurationDocsTest} (and for Redis {@code RedisConfigurationDocsTest}) keeps
 * each section equal to its table.
 */
public final class ReferenceTable {

  private ReferenceTable() {}

  /**
   * The top-level keys: {@code limiter.store}, {@code limiter.policies}, {@code limiter.routes}.
   */
  static String general() {
    return markdown("", CoreSettings.TOP);
  }

  /** The table of a policy's keys, {@code limiter.policy.NAME.*}. */
  static String policies() {
    return markdown(LimiterConfig.POLICY_PREFIX + "NAME.", PolicySettings.TABLE);
  }

  /** The table of a route's keys, {@code limiter.route.NAME.*}. */
  static String routes() {
    return markdown(LimiterConfig.ROUTE_PREFIX + "NAME.", CoreSettings.ROUTE);
  }

  /** The {@code limiter.http.*} keys. */
  static String http() {
    return markdown("", CoreSettings.HTTP);
  }

  /** The {@code limiter.events.*} and {@code limiter.metrics.*} keys, in one table. */
  static String eventsAndMetrics() {
    List<Setting<?>> settings = new ArrayList<>(CoreSettings.EVENTS);
    settings.addAll(CoreSettings.METRICS);
    return markdown("", settings);
  }

  /** The {@code limiter.top-keys.*} keys. */
  static String topKeys() {
    return markdown("", CoreSettings.TOP_KEYS);
  }

  /** The keys of live limits, {@code limiter.config.*} and {@code limiter.admin.*}. */
  static String live() {
    List<Setting<?>> settings = new ArrayList<>(CoreSettings.CONFIG);
    settings.addAll(CoreSettings.ADMIN);
    return markdown("", settings);
  }

  /** The table of a store's keys, each named whole. */
  public static String of(DeclaredStoreFactory store) {
    return markdown("", store.settings());
  }

  /** The table of an outbound policy's keys, {@code limiter.outbound.NAME.*}: docs/outbound.md. */
  static String outbound() {
    return markdown(OutboundConfig.PREFIX + "NAME.", OutboundSettings.TABLE);
  }

  /** A table of {@code settings}, each key shown after {@code prefix}. */
  static String markdown(String prefix, List<Setting<?>> settings) {
    StringBuilder table = new StringBuilder();
    table.append("| setting | type | default | example | meaning |\n");
    table.append("|---|---|---|---|---|\n");
    for (Setting<?> setting : settings) {
      table
          .append("| `")
          .append(prefix)
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
    return table.toString();
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
   * Whether docs/configuration.md, found from the working directory upward, shows {@code table}
   * between the marker lines of {@code section}; when it does not and {@code update} is true, it is
   * rewritten to show it.
   *
   * @throws IllegalArgumentException if there is no such page, or it lacks the marker lines
   */
  public static boolean shown(String section, String table, boolean update) throws IOException {
    Path page = page();
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

  /** docs/configuration.md of the project, found from the working directory upward. */
  public static Path page() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs/configuration.md");
      if (Files.isRegularFile(page)) {
        return page;
      }
    }
    throw new IllegalArgumentException(
        "no docs/configuration.md above " + Path.of("").toAbsolutePath());
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
