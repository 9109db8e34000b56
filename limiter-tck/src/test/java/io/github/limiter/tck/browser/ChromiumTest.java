package io.github.limiter.tck.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** How the page tests find their browser, and what they do without one, in and out of CI. */
class ChromiumTest {

  @TempDir Path dir;

  @Test
  void withoutABrowserTheTestIsSkippedAndSaysHowToRunIt() {
    assertThatThrownBy(() -> Chromium.binary("renders a page", Map.of("PATH", dir.toString())))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("this test renders a page in a real headless browser and found none")
        .hasMessageContaining("apt-get install chromium")
        .hasMessageContaining("CHROMIUM=/path/to/chrome ./mvnw verify");
  }

  @Test
  void underCiWithoutABrowserTheTestFailsInsteadOfSkipping() {
    assertThatThrownBy(
            () -> Chromium.binary("renders a page", Map.of("PATH", dir.toString(), "CI", "true")))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("CI=true, so the browser test may not be skipped")
        .hasMessageContaining("apt-get install chromium");
  }

  @Test
  void theFirstBrowserOnThePathIsTheOne() throws Exception {
    Path other = Files.createDirectory(dir.resolve("other"));
    executable(other.resolve("chromium"));
    Path google = executable(dir.resolve("google-chrome"));
    executable(dir.resolve("chromium-browser"));
    Files.createFile(dir.resolve("chromium")); // not executable: not a browser

    String path = dir + File.pathSeparator + other;
    assertThat(Chromium.binary("renders a page", Map.of("PATH", path)))
        .as("chromium comes first by name, wherever it is on the PATH")
        .isEqualTo(other.resolve("chromium").toString());
    Files.delete(other.resolve("chromium"));
    assertThat(Chromium.binary("renders a page", Map.of("PATH", path)))
        .isEqualTo(dir.resolve("chromium-browser").toString());
    Files.delete(dir.resolve("chromium-browser"));
    assertThat(Chromium.binary("renders a page", Map.of("PATH", path)))
        .isEqualTo(google.toString());
  }

  @Test
  void chromiumNamesTheBrowserAndMustBeOne() throws Exception {
    Path chrome = executable(dir.resolve("chrome"));
    assertThat(Chromium.binary("renders a page", Map.of("CHROMIUM", chrome.toString())))
        .isEqualTo(chrome.toString());
    Path missing = dir.resolve("no-such-chrome");
    assertThatThrownBy(
            () -> Chromium.binary("renders a page", Map.of("CHROMIUM", missing.toString())))
        .isInstanceOf(AssertionError.class)
        .hasMessage("CHROMIUM=" + missing + " is not an executable file");
  }

  private static Path executable(Path file) throws Exception {
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    return file;
  }
}
