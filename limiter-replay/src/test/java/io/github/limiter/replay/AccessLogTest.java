package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
}
