package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.limiter.ConfigException;
import io.github.limiter.spi.ConfigLookup;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 36.3: one mistake, one message. A typo is reported once, with the key it most likely meant,
 * and makes nothing else look wrong.
 */
class ConfigMistakesTest {

  private static Map<String, String> twoPoliciesAndARoute() {
    Map<String, String> properties = new TreeMap<>();
    properties.put("limiter.policy.api.algorithm", "token-bucket");
    properties.put("limiter.policy.api.limits", "10/s");
    properties.put("limiter.policy.plain.algorithm", "fixed-window");
    properties.put("limiter.policy.plain.limits", "5/m");
    properties.put("limiter.route.plain.pattern", "/plain/*");
    properties.put("limiter.route.plain.policies", "plain");
    properties.put("limiter.route.api.pattern", "/api/*");
    properties.put("limiter.route.api.policies", "api");
    return properties;
  }

  private static List<ConfigException> problems(Map<String, String> properties) {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> LimiterConfig.from(ConfigLookup.of(properties)));
    assertThat(e).as("the configuration should fail").isNotNull();
    return e.problems();
  }

  @Test
  void aTypoInOnePolicyIsOneProblemThatSuggestsTheKey() {
    // Given a typo in policy api's key, and routes to api and to the correct policy plain
    Map<String, String> properties = twoPoliciesAndARoute();
    properties.put("limiter.policy.api.kye", "header:X-Api-Key");

    // When it is read
    List<ConfigException> problems = problems(properties);

    // Then the typo is the one problem, with the key it meant: neither route is blamed
    assertThat(problems).extracting(ConfigException::key).containsExactly("limiter.policy.api.kye");
    assertThat(problems.get(0).getMessage())
        .contains("unknown key")
        .contains("'header:X-Api-Key'")
        .endsWith("; did you mean 'limiter.policy.api.key'?");
  }

  @Test
  void aMisspeltRequiredKeyIsNotAlsoReportedAsMissing() {
    // Given policy api's limits written as limts
    Map<String, String> properties = twoPoliciesAndARoute();
    properties.put("limiter.policy.api.limts", properties.remove("limiter.policy.api.limits"));

    // When it is read
    List<ConfigException> problems = problems(properties);

    // Then the typo is the one problem: not "limits: required", nor route api's policy
    assertThat(problems)
        .extracting(ConfigException::key)
        .containsExactly("limiter.policy.api.limts");
    assertThat(problems.get(0).getMessage()).endsWith("did you mean 'limiter.policy.api.limits'?");
  }

  @Test
  void aPolicyWithABadValueStillCountsForTheRoutesAndTheOtherKeys() {
    // Given a bad value in policy api, which a route names
    Map<String, String> properties = twoPoliciesAndARoute();
    properties.put("limiter.policy.api.permits", "none");

    // When it is read
    List<ConfigException> problems = problems(properties);

    // Then the bad value is the one problem
    assertThat(problems)
        .extracting(ConfigException::key)
        .containsExactly("limiter.policy.api.permits");
  }

  @Test
  void aTypoInARouteIsOneProblem() {
    Map<String, String> properties = twoPoliciesAndARoute();
    properties.put("limiter.route.api.patern", properties.remove("limiter.route.api.pattern"));

    List<ConfigException> problems = problems(properties);

    assertThat(problems)
        .extracting(ConfigException::key)
        .containsExactly("limiter.route.api.patern");
    assertThat(problems.get(0).getMessage()).endsWith("did you mean 'limiter.route.api.pattern'?");
  }

  @Test
  void aRouteNamingAMisspeltPolicySuggestsIt() {
    Map<String, String> properties = twoPoliciesAndARoute();
    properties.put("limiter.route.plain.policies", "plian");

    List<ConfigException> problems = problems(properties);

    assertThat(problems.get(0).getMessage())
        .isEqualTo(
            "limiter.route.plain.policies: no policy named 'plian'; configured policies are [api,"
                + " plain]; did you mean 'plain'?");
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource({
    "limiter.policy.api.algorithm, token-bukket, did you mean 'token-bucket'?",
    "limiter.policy.api.failure, fail-close, did you mean 'fail-closed'?",
    "limiter.policy.api.on-missing-key, rejct, did you mean 'reject'?",
    "limiter.stor, redis, did you mean 'limiter.store'?",
    "limiter.http.header, false, did you mean 'limiter.http.headers'?"
  })
  void aMisspeltValueOrKeySuggestsTheClosest(String key, String value, String suggestion) {
    Map<String, String> properties = twoPoliciesAndARoute();
    properties.put(key, value);

    List<ConfigException> problems = problems(properties);

    assertThat(problems).extracting(ConfigException::key).containsExactly(key);
    assertThat(problems.get(0).getMessage()).contains("'" + value + "'").endsWith(suggestion);
  }

  @Test
  void aWordFarFromEveryValidOneGetsNoSuggestion() {
    Map<String, String> properties = twoPoliciesAndARoute();
    properties.put("limiter.policy.api.colour", "blue");
    properties.put("limiter.policy.plain.algorithm", "sliding");

    assertThat(problems(properties))
        .extracting(ConfigException::getMessage)
        .hasSize(2)
        .noneMatch(message -> message.contains("did you mean"));
  }

  @Test
  void theClosestWordIsWithinAThirdOfItsLengthAndASwapIsOneEdit() {
    List<String> keys = List.of("key", "limits", "algorithm", "max-delay", "max-cost");

    assertThat(Suggestion.closest("kye", keys)).hasValue("key");
    assertThat(Suggestion.closest("Key", keys)).hasValue("key");
    assertThat(Suggestion.closest("algoritm", keys)).hasValue("algorithm");
    assertThat(Suggestion.closest("max-delya", keys)).hasValue("max-delay");
    assertThat(Suggestion.closest("ky", keys)).hasValue("key");
    assertThat(Suggestion.closest("kxz", keys)).isEmpty();
    assertThat(Suggestion.closest("maximum", keys)).isEmpty();
    assertThat(Suggestion.distance("kye", "key")).isEqualTo(1);
    assertThat(Suggestion.distance("limits", "limts")).isEqualTo(1);
    assertThat(Suggestion.distance("", "abc")).isEqualTo(3);
  }
}
