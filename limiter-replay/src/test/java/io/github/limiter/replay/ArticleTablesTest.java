package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every figure of the article's section 6, replayed from its traces through Limiter's engine.
 * Window algorithms use {@code --limit 10 --window 1}; buckets {@code --rate 10 --capacity 20}.
 */
class ArticleTablesTest {

  static final String[] WINDOW = {"--limit", "10", "--window", "1"};
  static final String[] BUCKET = {"--rate", "10", "--capacity", "20"};

  @Nested
  class PatternA_PoissonAt60PercentOfTheLimit {
    static final String TRACE = "pattern-a-poisson.txt";

    @Test
    void fixedWindowAdmits178Of184() {
      assertThat(summary(TRACE, "fixed-window", WINDOW))
          .endsWith("requests=184 allowed=178 rejected=6");
    }

    @Test
    void slidingWindowCounterAdmits178() {
      assertThat(summary(TRACE, "sliding-window-counter", WINDOW))
          .endsWith("requests=184 allowed=178 rejected=6");
    }

    @Test
    void tokenBucketAdmitsAll184() {
      assertThat(summary(TRACE, "token-bucket", BUCKET))
          .endsWith("requests=184 allowed=184 rejected=0");
    }

    @Test
    void leakyBucketAdmitsAll184() {
      assertThat(summary(TRACE, "leaky-bucket", BUCKET))
          .endsWith("requests=184 allowed=184 rejected=0");
    }
  }

  @Nested
  class PatternB_ThirtyRequestsIn20ms {
    static final String TRACE = "pattern-b-burst.txt";

    @Test
    void windowsAdmitTheirCeilingOf10() {
      assertThat(summary(TRACE, "fixed-window", WINDOW))
          .endsWith("requests=30 allowed=10 rejected=20");
      assertThat(summary(TRACE, "sliding-window-counter", WINDOW))
          .endsWith("requests=30 allowed=10 rejected=20");
    }

    @Test
    void tokenBucketSpendsItsCapacityOf20() {
      assertThat(summary(TRACE, "token-bucket", BUCKET))
          .endsWith("requests=30 allowed=20 rejected=10");
    }

    @Test
    void leakyBucketAdmits21AndDrainsThemFrom5_100To7_100() {
      String summary = summary(TRACE, "leaky-bucket", BUCKET);
      assertThat(summary).contains("departures from 5.100 s to 7.100 s");
      assertThat(summary).endsWith("requests=30 allowed=21 rejected=9");
      List<String> allowed =
          decisions(TRACE, "leaky-bucket", BUCKET).stream()
              .filter(line -> line.contains(" ALLOW "))
              .toList();
      assertThat(allowed).hasSize(21);
      // Output is smoothed to the leak rate: departures exactly 1/r = 100 ms apart.
      for (int i = 1; i < allowed.size(); i++) {
        BigDecimal gap = departure(allowed.get(i)).subtract(departure(allowed.get(i - 1)));
        assertThat(gap).isEqualByComparingTo("0.100");
      }
    }
  }

  @Nested
  class PatternC_BoundaryAttack {
    static final String TRACE = "pattern-c-boundary.txt";

    @Test
    void fixedWindowLetsAll20ThroughAcrossTheBoundary() {
      assertThat(admittedInAttack(decisions(TRACE, "fixed-window", WINDOW))).isEqualTo(20);
    }

    @Test
    void slidingWindowCounterHoldsItTo11() {
      assertThat(admittedInAttack(decisions(TRACE, "sliding-window-counter", WINDOW)))
          .isEqualTo(11);
    }

    @Test
    void leakyBucketAdmitsAll20ButSmoothsThem() {
      assertThat(admittedInAttack(decisions(TRACE, "leaky-bucket", BUCKET))).isEqualTo(20);
    }

    /**
     * The article reports 12. Its reference arithmetic runs on doubles, where 0.3 − 0.2 =
     * 0.09999999999999998: the bucket is a hair short of a token at 0.3 s, rejects that request,
     * and carries the token into the attack. In exact arithmetic the steady state leaves no surplus
     * and the bucket admits its 10 refilled tokens plus the 1.9 earned during the attack.
     */
    @Test
    void tokenBucketInSteadyStateAdmits11Exactly_andTheArticles12IsDoubleRounding() {
      String[] steady = {"--rate", "10", "--capacity", "20", "--initial", "0"};
      assertThat(admittedInAttack(decisions(TRACE, "token-bucket", steady))).isEqualTo(11);

      List<String> article =
          run(
              concat(
                  new String[] {"--arithmetic", "double", "--decisions"},
                  "token-bucket",
                  steady,
                  TRACE));
      assertThat(admittedInAttack(article)).isEqualTo(12);
      assertThat(article).contains("0.3 REJECT");
      assertThat(decisions(TRACE, "token-bucket", steady)).contains("0.3 ALLOW");
    }

    @Test
    void theArticlesDoubleArithmeticAgreesWithTheEngineOnEveryOtherFigure() {
      for (String algorithm : List.of("fixed-window", "sliding-window-counter")) {
        assertThat(
                run(
                    concat(
                        new String[] {"--arithmetic", "double", "--decisions"},
                        algorithm,
                        WINDOW,
                        TRACE)))
            .isEqualTo(decisions(TRACE, algorithm, WINDOW));
      }
      assertThat(
              run(
                  concat(
                      new String[] {"--arithmetic", "double", "--decisions"},
                      "leaky-bucket",
                      BUCKET,
                      TRACE)))
          .isEqualTo(decisions(TRACE, "leaky-bucket", BUCKET));
    }
  }

  /** Requests at 3.90 s ≤ t &lt; 4.10 s that were admitted. */
  static long admittedInAttack(List<String> decisions) {
    assertThat(decisions.stream().filter(ArticleTablesTest::inAttack).count()).isEqualTo(20);
    return decisions.stream()
        .filter(ArticleTablesTest::inAttack)
        .filter(line -> line.contains("ALLOW"))
        .count();
  }

  private static boolean inAttack(String line) {
    BigDecimal t = new BigDecimal(line.split(" ")[0]);
    return t.compareTo(new BigDecimal("3.90")) >= 0 && t.compareTo(new BigDecimal("4.10")) < 0;
  }

  private static BigDecimal departure(String line) {
    return new BigDecimal(line.split(" ")[2]);
  }

  static String summary(String trace, String algorithm, String[] params) {
    return String.join("\n", run(concat(new String[0], algorithm, params, trace)));
  }

  static List<String> decisions(String trace, String algorithm, String[] params) {
    return run(concat(new String[] {"--decisions"}, algorithm, params, trace));
  }

  static String[] concat(String[] options, String algorithm, String[] params, String trace) {
    List<String> args = new ArrayList<>(List.of(options));
    args.add("--algorithm");
    args.add(algorithm);
    args.addAll(List.of(params));
    args.add(tracePath(trace).toString());
    return args.toArray(String[]::new);
  }

  static Path tracePath(String name) {
    try {
      return Path.of(ArticleTablesTest.class.getResource("/traces/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<String> run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Replay.run(
            args,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    List<String> lines =
        Stream.of(out.toString(StandardCharsets.UTF_8).split("\n"))
            .filter(l -> !l.isEmpty())
            .toList();
    // With --decisions: one line per request, then the closing summary line, dropped here.
    return List.of(args).contains("--decisions") ? lines.subList(0, lines.size() - 1) : lines;
  }
}
