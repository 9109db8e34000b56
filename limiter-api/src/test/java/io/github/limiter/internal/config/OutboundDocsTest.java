package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/outbound.md shows the table of an outbound policy's keys made from their declarations
 * ({@link OutboundSettings}), between two marker lines; {@code -Dlimiter.docs.update=true} rewrites
 * it.
 */
class OutboundDocsTest {

  private static final String BEGIN = "<!-- outbound-table:begin -->\n";
  private static final String END = "<!-- outbound-table:end -->";

  @Test
  void theDocsShowTheTableOfTheOutboundKeys() throws IOException {
    Path page = page();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("%s has the line %s", page, BEGIN.strip()).isNotNegative();
    assertThat(end).as("%s has the line %s after it", page, END).isGreaterThan(begin);

    String table = ReferenceTable.outbound();
    if (text.substring(begin + BEGIN.length(), end).equals(table)) {
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
        "%s does not show the outbound keys as OutboundSettings declares them. Update it with%n"
            + "  ./mvnw -pl limiter-api -am test -Dtest=OutboundDocsTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dlimiter.docs.update=true%n"
            + "or paste this table between the markers:%n%s",
        page, table);
  }

  private static Path page() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs/outbound.md");
      if (Files.isRegularFile(page)) {
        return page;
      }
    }
    throw new AssertionError("docs/outbound.md not found above " + Path.of("").toAbsolutePath());
  }
}
