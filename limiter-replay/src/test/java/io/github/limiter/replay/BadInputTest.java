package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BadInputTest {

  record Result(int status, String out, String err) {}

  static Result run(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Replay.run(
            args,
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anUnparseableLineIsNamedByItsNumber() {
    Result result =
        run("0.1\n0.2\nabc\n", "--algorithm", "fixed-window", "--limit", "1", "--window", "1");
    assertThat(result.status()).isNotZero();
    assertThat(result.err()).contains("line 3").contains("'abc'");
  }

  @Test
  void aTimestampThatGoesBackIsNamedByItsNumber() {
    Result result =
        run("1.0\n0.5\n", "--algorithm", "token-bucket", "--rate", "1", "--capacity", "1");
    assertThat(result.status()).isNotZero();
    assertThat(result.err()).contains("line 2: timestamp 0.5 goes back before 1.0");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--algorithm nope --limit 1 --window 1 | --algorithm",
        "--limit 1 --window 1 | --algorithm is required",
        "--algorithm fixed-window --window 1 | --limit is required",
        "--algorithm fixed-window --limit ten --window 1 | --limit: expected a non-negative integer, was 'ten'",
        "--algorithm fixed-window --limit 0 --window 1 | --limit must be at least 1",
        "--algorithm fixed-window --limit 1 --window -1 | --window must be positive",
        "--algorithm token-bucket --rate 10 | --capacity is required",
        "--algorithm token-bucket --rate x --capacity 2 | --rate: expected a decimal number, was 'x'",
        "--algorithm token-bucket --rate 10 --capacity 2 --initial 3 | --initial must be at most --capacity 2",
        "--algorithm token-bucket --rate 10 --capacity 2 --window 1 | --window does not apply to token-bucket",
        "--algorithm leaky-bucket --rate 10 --capacity 2 --bogus | unknown option '--bogus'",
        "--algorithm concurrency --limit 2 | a concurrency limit bounds requests in flight, and a trace records when requests arrive, not when they end",
        "sweep --algorithm concurrency --limit 1,2 | cannot be replayed",
      })
  void aMissingOrInvalidParameterIsNamed(String args, String message) {
    Result result = run("0\n", args.trim().split(" "));
    assertThat(result.status()).isNotZero();
    assertThat(result.err()).contains(message);
  }

  @Test
  void keysAreLimitedIndependently() {
    Result result =
        run("0 a\n0 a\n0 b\n", "--algorithm", "fixed-window", "--limit", "1", "--window", "1");
    assertThat(result.status()).isZero();
    assertThat(result.out())
        .contains("key=a requests=2 allowed=1 rejected=1")
        .contains("key=b requests=1 allowed=1 rejected=0")
        .endsWith("requests=3 allowed=2 rejected=1\n");
  }

  @Test
  void decimalRatesAreExact() {
    // 2.5/s: one token every 400 ms, from an empty bucket.
    Result result =
        run(
            "0\n0.399999999\n0.4\n",
            "--algorithm",
            "token-bucket",
            "--rate",
            "2.5",
            "--capacity",
            "1",
            "--initial",
            "0",
            "--decisions");
    assertThat(result.out()).startsWith("0 REJECT\n0.399999999 REJECT\n0.4 ALLOW\n");
  }

  @Test
  void readsCommonLogFormatKeyedByClient() {
    String log =
        """
        10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 2326
        10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2326
        10.0.0.2 - frank [10/Oct/2000:13:55:36 -0700] "GET /b HTTP/1.0" 200 2326 "-" "curl"
        """;
    Result result =
        run(
            log,
            "--format",
            "clf",
            "--algorithm",
            "sliding-window-log",
            "--limit",
            "1",
            "--window",
            "60");
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.out())
        .contains("key=10.0.0.1 requests=2 allowed=1 rejected=1")
        .endsWith("requests=3 allowed=2 rejected=1\n");
  }

  @Test
  void anAccessLogSkipsWhatItCannotReadAndSaysHowManyAndWhy() {
    String log =
        """
        10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 2326
        garbage
        10.0.0.1 - - [10/Oct/2000:13:55:99 -0700] "GET /a HTTP/1.0" 200 2326
        also garbage
        10.0.0.2 - - [10/Oct/2000:13:55:35 -0700] "GET /b HTTP/1.0" 200 2326 "-" "curl"
        """;
    String[] args = {
      "--format", "combined", "--algorithm", "fixed-window", "--limit", "5", "--window", "1"
    };
    Result result = run(log, args);
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.err())
        .contains("skipped 2 lines (first: line 2): not in Common/Combined Log Format")
        .contains(
            "skipped 1 line (first: line 3): a time that is not dd/MMM/yyyy:HH:mm:ss Z, such as '10/Oct/2000:13:55:99 -0700'")
        .contains("put 1 line logged out of time order back in order (first: line 5)")
        .contains("--strict makes these errors");
    assertThat(result.out()).endsWith("requests=2 allowed=2 rejected=0\n");

    String[] strict = Stream.concat(Stream.of("--strict"), Stream.of(args)).toArray(String[]::new);
    Result fatal = run(log, strict);
    assertThat(fatal.status()).isEqualTo(2);
    assertThat(fatal.err()).contains("line 2: not in Common/Combined Log Format");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "compare --limit 10 --window 1 --rate 10 | --capacity is required",
        "compare --rate 10 --capacity 20 | --limit is required",
        "compare --algorithm token-bucket --limit 1 --window 1 --rate 1 --capacity 1 | compare runs all five algorithms",
        "compare --limit 1 --window 1 --rate 1 --capacity 1 --decisions | --decisions is for the one-algorithm command",
        "sweep --rate 1..5 --capacity 1 | --algorithm is required",
        "sweep --algorithm token-bucket --rate 50..5 --capacity 1 | --rate: expected a number, a list a,b,c or a range A..B with A < B, was '50..5'",
        "sweep --algorithm token-bucket --rate 1..5 --capacity x,2 | --capacity: expected a number",
        "sweep --algorithm token-bucket --rate 0..5 --capacity 2 | --rate must be positive, was '0'",
        "sweep --algorithm fixed-window --limit 1..9 --window 1 --steps 1 | --steps: expected a whole number from 2 to 100, was '1'",
        "sweep --algorithm fixed-window --limit 1..9 --window 1 --target-rejection 5 | --target-rejection: expected a share from 0% to 100%",
        "sweep --algorithm fixed-window --limit 1..9 | --window is required",
        "--algorithm fixed-window --limit 1 --window 1 --report r.html | --report draws compare and sweep",
        "compare --limit 1 --window 1 --rate 1 --capacity 1 --steps 5 | --steps is for sweep",
        "compare --limit 1 --window 1 --rate 1 --capacity 1 --report /no/such/dir/r.html | --report: cannot write '/no/such/dir/r.html'",
      })
  void compareAndSweepNameTheParameter(String args, String message) {
    Result result = run("0\n", args.trim().split(" "));
    assertThat(result.status()).isEqualTo(2);
    assertThat(result.err()).contains(message);
  }
}
