package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The user guide shows the tool's own usage text, so that the two never drift apart. */
class UsageDocsTest {

  @Test
  void theUserGuideShowsTheUsageTextAsTheToolPrintsIt() throws IOException {
    Path guide = root().resolve("docs/replay.md");

    String text = Files.readString(guide);

    assertThat(text)
        .as("docs/replay.md's usage block: paste Replay.USAGE there when an option changes")
        .contains("```\n" + Replay.USAGE + "```");
  }

  /** The repository root: the nearest directory, from here up, that holds {@code mvnw}. */
  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("a directory holding mvnw above the working directory").isNotNull();
    return dir;
  }
}
