package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Algorithm;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The scripts Redis runs are composed from one source per algorithm, and stay free of closures. */
class ScriptsTest {

  private static final Pattern MARKER_LINE = Pattern.compile("(?m)^--@ \\w+$");

  @Test
  void decideAndAdjustAreSplicedFromTheAlgorithmsOneSource() {
    for (Algorithm algorithm : Algorithm.values()) {
      String name = algorithm.configName();
      Map<String, String> sections = Scripts.expanded(name);
      String decide = unindented(Scripts.decide(algorithm).source());
      String adjust = unindented(Scripts.adjust(algorithm).source());
      String leases =
          Scripts.leases(algorithm)
              ? unindented(Scripts.lease(algorithm).source())
                  + unindented(Scripts.release(algorithm).source())
              : "";
      String renew =
          Scripts.renew(algorithm) == null ? "" : unindented(Scripts.renew(algorithm).source());
      assertThat(sections)
          .as(name)
          .containsKeys(
              "head", "fetch", "load", "wait", "admit", "debt", "refund", "reset", "write");
      sections.forEach(
          (section, text) ->
              assertThat(decide + adjust + leases + renew)
                  .as(name + " --@ " + section)
                  .contains(unindented(text).strip()));
      // The state is read and written by the same text in both scripts: nothing kept in step by
      // hand.
      for (String shared : new String[] {"head", "fetch", "load", "reset", "write"}) {
        String text = unindented(sections.get(shared)).strip();
        assertThat(decide).as(name + " decide --@ " + shared).contains(text);
        assertThat(adjust).as(name + " adjust --@ " + shared).contains(text);
      }
      assertThat(decide).as(name).doesNotContainPattern(MARKER_LINE);
      assertThat(adjust).as(name).doesNotContainPattern(MARKER_LINE);
      assertThat(Scripts.class.getResource("lua/" + name + "-decide.lua"))
          .as(name + "-decide.lua")
          .isNull();
    }
  }

  @Test
  void leaseScriptsAreSplicedFromTheSameSourceForTheTokenBucketAndTheFixedWindowOnly() {
    for (Algorithm algorithm : Algorithm.values()) {
      String name = algorithm.configName();
      boolean proven = algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.FIXED_WINDOW;
      assertThat(Scripts.leases(algorithm)).as(name).isEqualTo(proven);
      if (!proven) {
        continue;
      }
      Map<String, String> sections = Scripts.expanded(name);
      String lease = unindented(Scripts.lease(algorithm).source());
      String release = unindented(Scripts.release(algorithm).source());
      // The grant refills, measures and charges with the algorithm's own text; the release gives
      // back with it: no arithmetic of a bucket or a window is written twice.
      for (String shared : new String[] {"head", "fetch", "load", "lent", "remaining", "admit"}) {
        assertThat(lease)
            .as(name + " lease --@ " + shared)
            .contains(unindented(sections.get(shared)).strip());
      }
      for (String shared : new String[] {"head", "fetch", "load", "lent", "refund", "write"}) {
        assertThat(release)
            .as(name + " release --@ " + shared)
            .contains(unindented(sections.get(shared)).strip());
      }
      assertThat(lease + release).as(name).doesNotContainPattern(MARKER_LINE);
      assertThat(Scripts.lease(algorithm).source()).as(name).doesNotContain("function");
    }
  }

  @Test
  void onlyTheConcurrencyLimitHoldsPermitsUnderHoldsItsNodeRenews() {
    for (Algorithm algorithm : Algorithm.values()) {
      boolean held = algorithm == Algorithm.CONCURRENCY;
      assertThat(Scripts.renew(algorithm) != null).as(algorithm.configName()).isEqualTo(held);
      if (held) {
        String renew = Scripts.renew(algorithm).source();
        assertThat(renew).doesNotContainPattern(MARKER_LINE).doesNotContain("function");
        assertThat(unindented(renew))
            .contains(unindented(Scripts.expanded("concurrency").get("renew")).strip());
      }
    }
  }

  @Test
  void aPolicyOfRatesAloneRunsNoQuotaCode() {
    for (Algorithm algorithm : Algorithm.values()) {
      String name = algorithm.configName();
      String[] plain = {
        Scripts.decide(algorithm, false).source(),
        Scripts.adjust(algorithm, false).source(),
        Scripts.peek(algorithm, false).source()
      };
      String[] withQuotas = {
        Scripts.decide(algorithm, true).source(),
        Scripts.adjust(algorithm, true).source(),
        Scripts.peek(algorithm, true).source()
      };
      for (int t = 0; t < plain.length; t++) {
        // the quotas' key, their count and the ARGV that counts them
        assertThat(plain[t])
            .as(name + " plain " + t)
            .doesNotContain("KEYS[n + j]", "qcount", "ARGV[#ARGV]", "--[", "--]");
        assertThat(withQuotas[t])
            .as(name + " with quotas " + t)
            .contains("KEYS[n + j]", "qcount", "ARGV[#ARGV]")
            .doesNotContain("--[ ", "\n--]");
      }
    }
    assertThat(Scripts.shaped("a\n--[ x\nb\n--]\nc\n--[ y\nd\n--]\n", "x")).isEqualTo("a\nb\nc\n");
  }

  @Test
  void oneRequestUnderOneLimitIsDecidedInOnePassWhereNoQuotaCanShareTheKeys() {
    for (Algorithm algorithm : Algorithm.values()) {
      String single = "if n == 1 and g == 1 then";
      assertThat(Scripts.decide(algorithm, false).source())
          .as(algorithm.configName())
          .contains(single);
      // with quotas, #KEYS counts them too: one key may be a limit and a quota
      assertThat(Scripts.decide(algorithm, true).source())
          .as(algorithm.configName())
          .doesNotContain(single);
    }
  }

  @Test
  void hotScriptsCreateNoClosures() {
    // Closures are allocated on every call; only the counter's exact large-number helpers need
    // them.
    for (Algorithm algorithm : Algorithm.values()) {
      if (algorithm != Algorithm.SLIDING_WINDOW_COUNTER) {
        assertThat(Scripts.decide(algorithm).source())
            .as(algorithm.configName())
            .doesNotContain("function");
      }
    }
  }

  @Test
  void aSourceWithCodeOutsideItsSectionsIsRejected() {
    assertThatThrownBy(
            () -> Scripts.sections("broken", "-- fine\nlocal lost = 1\n--@ load\nlocal x = 1\n"))
        .hasMessageContaining("broken.lua has code before its first section: local lost = 1");
    assertThatThrownBy(
            () -> Scripts.sections("twice", "--@ load\nlocal x = 1\n--@ load\nlocal y = 2\n"))
        .hasMessageContaining("twice.lua defines section load twice");
  }

  private static String unindented(String text) {
    return text.lines().map(String::strip).collect(Collectors.joining("\n"));
  }
}
