package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Real access logs: their time formats, their resolution, and what is printed about them. */
class AccessLogTest {

  /** Three requests in one second, from 2026-12-01 08:00:00 UTC. */
  static final String ONE_SECOND =
      """
      10.0.0.1 - - [01/Dec/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 512
      10.0.0.1 - - [01/Dec/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 512
      10.0.0.1 - - [01/Dec/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 512
      """;

  @Test
  void theLeakyBucketsDeparturesAreSecondsAfterTheTracesStart_notEpochSeconds() {
    // the queue leaks one a second: the first leaves 1 s after arriving, the third 3 s after
    BadInputTest.Result one =
        BadInputTest.run(
            ONE_SECOND,
            "--format",
            "clf",
            "--algorithm",
            "leaky-bucket",
            "--rate",
            "1",
            "--capacity",
            "5");
    assertThat(one.status()).as(one.err()).isZero();
    assertThat(one.out())
        .contains("departures from 1.000 s to 3.000 s after 2026-12-01 08:00:00 UTC\n");

    BadInputTest.Result all =
        BadInputTest.run(
            ONE_SECOND,
            "compare",
            "--format",
            "clf",
            "--limit",
            "5",
            "--window",
            "1",
            "--rate",
            "1",
            "--capacity",
            "5");
    assertThat(all.status()).as(all.err()).isZero();
    assertThat(all.out())
        .contains(
            "leaky-bucket departures from 1.000 s to 3.000 s after 2026-12-01 08:00:00 UTC\n");
  }

  /** 2026-12-01 08:00:00 UTC. */
  static final long START = 1796112000L;

  @TempDir static Path dir;

  /**
   * The same four requests of client 10.0.0.1, at 0.125, 0.250, 0.500 and 1.200 s past START, in
   * each sub-second format: each reads them to the millisecond, so a sliding log of 2 per second
   * admits, admits, rejects, admits.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "clf | 10.0.0.1 - - [01/Dec/2026:08:00:{s}.{ms} +0000] \"GET / HTTP/1.1\" 200 5",
        "combined | 10.0.0.1 - - [01/Dec/2026:09:00:{s}.{ms} +0100] \"GET / HTTP/1.1\" 200 5 \"-\""
            + " \"curl\"",
        "nginx-msec | 10.0.0.1 - - [{epoch}.{ms}] \"GET / HTTP/1.1\" 200 5",
        "apache-msec | 10.0.0.1 - - [{epoch}{ms}] \"GET / HTTP/1.1\" 200 5",
        "apache-usec | 10.0.0.1 - - [{epoch}{ms}000] \"GET / HTTP/1.1\" 200 5",
        "iso | 10.0.0.1 - - [2026-12-01T08:00:{s}.{ms}Z] \"GET / HTTP/1.1\" 200 5",
        "iso | 10.0.0.1 [2026-12-01T09:00:{s}.{ms}+01:00] \"GET /[a] HTTP/1.1\" 200",
        "json | `{\"ts\": {epoch}.{ms}, \"client\": \"10.0.0.1\", \"req\": {\"path\": \"/a,b}\"}}`",
        "json-ms | `{\"ts\": {epoch}{ms}, \"client\": \"10.0.0.1\"}`",
        "json | `{\"req\": [1, {\"x\": \"]\"}], \"ts\": \"2026-12-01T08:00:{s}.{ms}Z\","
            + " \"client\": \"10.0.0.1\"}`",
      })
  void eachSubSecondFormatReadsTheSameRequestsToTheMillisecond(String format, String template) {
    StringBuilder log = new StringBuilder();
    for (long ms : new long[] {125, 250, 500, 1200}) {
      log.append(
              template
                  .replace("{epoch}", Long.toString(START + ms / 1000))
                  .replace("{s}", String.format("%02d", ms / 1000))
                  .replace("{ms}", String.format("%03d", ms % 1000)))
          .append('\n');
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "--format",
                format.startsWith("json") ? "json" : format,
                "--algorithm",
                "sliding-window-log",
                "--limit",
                "2",
                "--window",
                "1",
                "--decisions"));
    if (format.startsWith("json")) {
      args.addAll(List.of("--time-field", "ts", "--key-field", "client"));
    }
    if (format.equals("json-ms")) { // Apache's %{msec}t in a JSON line: milliseconds
      args.addAll(List.of("--time-unit", "ms"));
    }
    BadInputTest.Result result = BadInputTest.run(log.toString(), args.toArray(String[]::new));
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.err()).as("nothing skipped, and not one-second resolution").isEmpty();
    assertThat(result.out())
        .isEqualTo(
            """
            1796112000.125 ALLOW
            1796112000.25 ALLOW
            1796112000.5 REJECT
            1796112001.2 ALLOW
            requests=4 allowed=3 rejected=1
            """);
  }

  @Test
  void jsonLinesWithoutTheFieldsOrNotJsonAreSkippedAndCounted() {
    String log =
        """
        {"ts": 1796112000.5, "client": "a"}
        {"ts": 1796112000.6}
        {"client": "a"}
        not json
        {"ts": "yesterday", "client": "a"}
        {"ts": 1796112000.7, "client": "b\u00e9"}
        """;
    BadInputTest.Result result =
        BadInputTest.run(
            log,
            "--format",
            "json",
            "--time-field",
            "ts",
            "--key-field",
            "client",
            "--algorithm",
            "fixed-window",
            "--limit",
            "5",
            "--window",
            "1");
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.err())
        .contains("skipped 1 line (first: line 2): no 'client' field (--key-field)")
        .contains("skipped 1 line (first: line 3): no 'ts' field (--time-field)")
        .contains("skipped 1 line (first: line 4): not a JSON object on one line")
        .contains(
            "skipped 1 line (first: line 5): a 'ts' that is neither a number of s since the epoch")
        .contains("--strict makes these errors");
    assertThat(result.out())
        .contains("key=bé requests=1")
        .endsWith("requests=2 allowed=2 rejected=0\n");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--format w3c | --format: expected one of seconds, clf, combined, nginx-msec, apache-msec,"
            + " apache-usec, iso, json, was 'w3c'",
        "--format json | --format json needs --time-field NAME",
        "--format clf --time-field ts | --time-field is for the fields of a JSON line: it needs"
            + " --format json, not 'clf'",
        "--key-field client | --key-field is for the fields of a JSON line",
        "--time-unit ms | --time-unit is for the fields of a JSON line",
        "--format json --time-field ts --time-unit min | --time-unit: expected s, ms, us or ns (the"
            + " unit of a numeric time), was 'min'",
        "--format json --time-field ts --key-field | --key-field needs a value",
        "--spread | --spread is for a trace of whole seconds, and this one has sub-second times"
            + " (line 2: '0.5')",
      })
  void aFormatOptionThatCannotWorkIsNamed(String args, String message) {
    List<String> all = new ArrayList<>(List.of(args.trim().split(" ")));
    all.addAll(List.of("--algorithm", "fixed-window", "--limit", "1", "--window", "1"));
    BadInputTest.Result result = BadInputTest.run("0\n0.5\n", all.toArray(String[]::new));
    assertThat(result.status()).isEqualTo(2);
    assertThat(result.err()).contains(message);
  }

  @Test
  void spreadPlacesASecondsRequestsEvenlyInsideIt_inTheOrderLogged() {
    String log = ONE_SECOND.replaceFirst("10.0.0.1", "10.0.0.2");
    BadInputTest.Result result =
        BadInputTest.run(
            log,
            "--format",
            "clf",
            "--spread",
            "--algorithm",
            "fixed-window",
            "--limit",
            "5",
            "--window",
            "1",
            "--decisions");
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.out())
        .startsWith(
            """
            1796112000.166666666 ALLOW
            1796112000.5 ALLOW
            1796112000.833333333 ALLOW
            """);
    assertThat(result.err())
        .isEqualTo(
            "limiter-replay: one-second resolution: each second's requests were placed evenly"
                + " inside it (--spread)\n");
  }

  /**
   * The trace: 40 clients at a Poisson 5 requests/s and one at 100/s, 180 s, logged in
   * whole seconds (Combined Log Format) and, the same traffic, to the millisecond (nginx $msec). At
   * --limit 10 --window 1 the whole seconds make the sliding window counter reject 42% instead of
   * 31%, and the token bucket hit 37 keys instead of the abuser alone; the tool says so, and
   * --spread gives back the millisecond log's figures.
   */
  @Test
  void aWholeSecondLogIsNamedOnStderr_andSpreadGivesBackTheSubSecondFigures() throws IOException {
    Path seconds = dir.resolve("seconds.log");
    Path msec = dir.resolve("msec.log");
    try (Writer w = Files.newBufferedWriter(seconds, StandardCharsets.UTF_8)) {
      AccessLogGenerator.write(w, 40, 180, 42, false);
    }
    try (Writer w = Files.newBufferedWriter(msec, StandardCharsets.UTF_8)) {
      AccessLogGenerator.write(w, 40, 180, 42, true);
    }
    BadInputTest.Result whole = compare("combined", seconds);
    BadInputTest.Result spread = compare("combined", seconds, "--spread");
    BadInputTest.Result truth = compare("nginx-msec", msec);

    assertThat(whole.err())
        .startsWith("limiter-replay: one-second resolution: every time in this trace is a whole")
        .contains("sliding window counter")
        .contains("--spread places each second's requests evenly inside it");
    assertThat(truth.err()).isEmpty();
    Map<String, Map<String, String>> w = table(whole);
    Map<String, Map<String, String>> s = table(spread);
    Map<String, Map<String, String>> t = table(truth);
    assertThat(t.get("token-bucket").get("requests"))
        .isEqualTo(w.get("token-bucket").get("requests"));

    double truthRejected = percent(t, "sliding-window-counter");
    assertThat(percent(w, "sliding-window-counter")).isGreaterThan(truthRejected + 10);
    assertThat(percent(s, "sliding-window-counter")).isCloseTo(truthRejected, within(0.5));
    assertThat(t.get("token-bucket").get("keys hit")).isEqualTo("1/41");
    assertThat(w.get("token-bucket").get("keys hit")).isNotEqualTo("1/41");
    assertThat(s.get("token-bucket").get("keys hit")).isEqualTo("1/41");
  }

  private static BadInputTest.Result compare(String format, Path log, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "compare",
                "--limit",
                "10",
                "--window",
                "1",
                "--rate",
                "10",
                "--capacity",
                "10",
                "--format",
                format,
                log.toString()));
    args.addAll(List.of(extra));
    BadInputTest.Result result = BadInputTest.run("", args.toArray(String[]::new));
    assertThat(result.status()).as(result.err()).isZero();
    return result;
  }

  static Map<String, Map<String, String>> table(BadInputTest.Result result) {
    return CompareTest.table(List.of(result.out().split("\n")));
  }

  private static double percent(Map<String, Map<String, String>> table, String algorithm) {
    return Double.parseDouble(table.get(algorithm).get("rejected%").replace("%", ""));
  }
}
