package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.limiter.Algorithm;
import io.github.limiter.ConfigException;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig.MissingKey;
import io.github.limiter.internal.config.PolicyConfig.Shaping;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one key scheme: every key of the Javadoc, its default, and an error naming key and value. */
class LimiterConfigTest {

  static LimiterConfig read(Map<String, String> properties) {
    return LimiterConfig.from(ConfigLookup.of(properties));
  }

  static Map<String, String> api(String algorithm, String limits) {
    Map<String, String> properties = new HashMap<>();
    properties.put("limiter.policy.api.algorithm", algorithm);
    properties.put("limiter.policy.api.limits", limits);
    return properties;
  }

  @Test
  void anEmptyConfigurationHasTheDefaults() {
    LimiterConfig config = read(Map.of());

    assertThat(config.store()).isEqualTo("memory");
    assertThat(config.policies()).isEmpty();
    assertThat(config.routes()).isEmpty();
    assertThat(config.http()).isEqualTo(HttpSettings.DEFAULTS);
    assertThat(config.http()).isEqualTo(new HttpSettings(429, 503, true, false, List.of(), 64));
  }

  @Test
  void aPolicyHasTheDocumentedDefaults() {
    PolicyConfig api = read(api("token-bucket", "10/s burst=20")).policy("api").orElseThrow();

    assertThat(api.name()).isEqualTo("api");
    assertThat(api.policy().algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(api.policy().limits()).containsExactly(Limit.bucket(10, Duration.ofSeconds(1), 20));
    assertThat(api.key()).isEqualTo(KeySource.REMOTE_ADDRESS);
    assertThat(api.onMissingKey()).isEqualTo(MissingKey.REMOTE_ADDRESS);
    assertThat(api.permits()).isEqualTo(1);
    assertThat(api.policy().failureMode()).isEqualTo(FailureMode.LOCAL);
    assertThat(api.dryRun()).isFalse();
    assertThat(api.shaping()).isEqualTo(Shaping.NONE);
  }

  @Test
  void aLeakyBucketPolicyShapesByDefault() {
    PolicyConfig api = read(api("leaky-bucket", "1/s burst=5")).policy("api").orElseThrow();

    assertThat(api.shaping()).isEqualTo(new Shaping(false, Duration.ofSeconds(30), 0));
  }

  @Test
  void everyKeyIsRead() {
    // Given every key of the scheme set to a value other than its default
    Map<String, String> properties =
        new HashMap<>(api("leaky-bucket", "10/s burst=20 initial=2, 1000/h"));
    properties.putAll(
        Map.of(
            "limiter.store", "redis",
            "limiter.policy.api.key", "header:X-Api-Key",
            "limiter.policy.api.on-missing-key", "reject",
            "limiter.policy.api.permits", "2",
            "limiter.policy.api.failure", "fail-closed",
            "limiter.policy.api.dry-run", "true",
            "limiter.policy.api.nodelay", "TRUE",
            "limiter.policy.api.max-delay", "500ms",
            "limiter.policy.api.delay-after", "3"));
    properties.putAll(
        Map.of(
            "limiter.route.public.pattern", "/api/*",
            "limiter.route.public.methods", "get, Post",
            "limiter.route.public.policies", "api, login",
            "limiter.policy.login.algorithm", "fixed-window",
            "limiter.policy.login.limits", "5/m",
            "limiter.policy.login.key", "principal",
            "limiter.policy.login.on-missing-key", "allow"));
    properties.putAll(
        Map.of(
            "limiter.http.rejection-status", "503",
            "limiter.http.unavailable-status", "500",
            "limiter.http.headers", "false",
            "limiter.http.legacy-headers", "true",
            "limiter.http.trusted-proxies", "10.0.0.0/8, ::1/128",
            "limiter.http.ipv6-prefix", "56"));

    // When read
    LimiterConfig config = read(properties);

    // Then each lands where it belongs
    assertThat(config.store()).isEqualTo("redis");
    PolicyConfig api = config.policy("api").orElseThrow();
    assertThat(api.policy().limits())
        .containsExactly(
            Limit.bucket(10, Duration.ofSeconds(1), 20).withInitial(2),
            Limit.of(1000, Duration.ofHours(1)));
    assertThat(api.key()).isEqualTo(new KeySource(KeySource.Kind.HEADER, "X-Api-Key"));
    assertThat(api.onMissingKey()).isEqualTo(MissingKey.REJECT);
    assertThat(api.permits()).isEqualTo(2);
    assertThat(api.policy().failureMode()).isEqualTo(FailureMode.FAIL_CLOSED);
    assertThat(api.dryRun()).isTrue();
    assertThat(api.shaping()).isEqualTo(new Shaping(true, Duration.ofMillis(500), 3));
    PolicyConfig login = config.policy("login").orElseThrow();
    assertThat(login.key().kind()).isEqualTo(KeySource.Kind.PRINCIPAL);
    assertThat(login.onMissingKey()).isEqualTo(MissingKey.ALLOW);
    assertThat(config.policies().keySet()).containsExactly("api", "login");
    assertThat(config.routes())
        .containsExactly(
            new Route("public", "/api/*", Set.of("GET", "POST"), List.of("api", "login")));
    assertThat(config.http())
        .isEqualTo(new HttpSettings(503, 500, false, true, List.of("10.0.0.0/8", "::1/128"), 56));
  }

  @Test
  void policiesAndRoutesComeInNameOrderAndDottedNamesWork() {
    Map<String, String> properties = new HashMap<>(api("fixed-window", "1/s"));
    properties.put("limiter.policy.a.b.algorithm", "fixed-window");
    properties.put("limiter.policy.a.b.limits", "2/s");
    properties.put("limiter.route.z.pattern", "/z");
    properties.put("limiter.route.z.policies", "api");
    properties.put("limiter.route.b.pattern", "*.json");
    properties.put("limiter.route.b.policies", "a.b");

    LimiterConfig config = read(properties);

    assertThat(config.policies().keySet()).containsExactly("a.b", "api");
    assertThat(config.routes()).extracting(Route::name).containsExactly("b", "z");
    assertThat(config.policy("missing")).isEmpty();
  }

  /**
   * Reads {@code properties} expecting a ConfigException for {@code key} naming {@code value}: the
   * first of the problems reported, or the only one.
   */
  static ConfigException failure(Map<String, String> properties, String key, String value) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> read(properties));
    assertThat(e).as("a ConfigException for %s", key).isNotNull();
    assertThat(e.key()).isEqualTo(key);
    ConfigException first = e.problems().get(0);
    assertThat(first.getMessage()).startsWith(key + ": ").contains(value);
    assertThat(e.getMessage()).contains(first.getMessage());
    return e;
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "algorithm      | token_bucket  | expected fixed-window, sliding-window-counter,",
        "limits         | 10 per sec    | expected <permits>/<period>",
        "limits         | 0/s           | permits must be at least 1",
        "key            | cookie:sid    | expected remote-address, header:<name>",
        "on-missing-key | deny          | expected remote-address, reject or allow",
        "permits        | 0             | expected an integer between 1 and",
        "permits        | -3            | expected an integer between 1 and",
        "permits        | many          | expected an integer",
        "failure        | open          | fail-open",
        "dry-run        | yes           | expected true or false",
        "nodelay        | 1             | expected true or false",
        "max-delay      | forever       | expected a duration",
        "max-delay      | 0s            | expected a positive duration",
        "delay-after    | -1            | expected an integer between 0 and",
        "delay-after    | 99999999999   | expected an integer between 0 and",
        "cost           | param:tokens  | expected header:<name> or resolver:<name>",
        "cost           | principal     | expected header:<name> or resolver:<name>",
        "cost           | header:       | expected header:<name> or resolver:<name>",
        "max-cost       | 0             | expected an integer between 1 and",
        "max-cost       | lots          | expected an integer",
        "count          | failures      | expected all or status:<code>",
        "count          | status:       | expected all or status:<code>",
        "count          | status:600    | expected all or status:<code>",
        "count          | status:401,x  | expected all or status:<code>",
        "plan-source    | cookie:plan   | expected role:<role>,<role>..., resolver:<name> or header:<name>",
        "plan-source    | role:         | expected role:<role>,<role>..., resolver:<name> or header:<name>",
        "plan-source    | header:       | expected role:<role>,<role>..., resolver:<name> or header:<name>",
        "on-unknown-plan | drop         | expected default or reject"
      })
  void aBadPolicyValueNamesTheKeyAndTheValue(String suffix, String value, String expected) {
    Map<String, String> properties = api("leaky-bucket", "10/s");
    properties.put("limiter.policy.api." + suffix, value);

    ConfigException e = failure(properties, "limiter.policy.api." + suffix, value);

    assertThat(e.getMessage()).contains(expected);
  }

  @Test
  void aCostComesFromAHeaderOrAResolverAndIsBoundedByMaxCost() {
    Map<String, String> properties = api("token-bucket", "100/m burst=100");
    properties.put("limiter.policy.api.cost", "header:X-Cost");
    properties.put("limiter.policy.api.max-cost", "50");
    properties.put("limiter.policy.api.permits", "2");

    PolicyConfig.Cost cost = read(properties).policy("api").orElseThrow().cost();

    assertThat(cost.source()).isEqualTo(new KeySource(KeySource.Kind.HEADER, "X-Cost"));
    assertThat(cost.max()).isEqualTo(50);
    // what a request asks for: a decimal number, else the permits; never above max-cost
    assertThat(cost.of("7", 2)).isEqualTo(7);
    assertThat(cost.of(" 7 ", 2)).isEqualTo(7);
    assertThat(cost.of("51", 2)).isEqualTo(50);
    assertThat(cost.of("99999999999999999999999", 2)).isEqualTo(50);
    assertThat(cost.of(null, 2)).isEqualTo(2);
    assertThat(cost.of("", 2)).isEqualTo(2);
    assertThat(cost.of("0", 2)).isEqualTo(2);
    assertThat(cost.of("-5", 2)).isEqualTo(2);
    assertThat(cost.of("1e3", 2)).isEqualTo(2);
    assertThat(cost.of("7 tokens", 2)).isEqualTo(2);
  }

  @Test
  void withoutACostEveryRequestCostsThePermitsAndMaxCostStopsAboveTheCapacity() {
    Map<String, String> properties = api("fixed-window", "10/m");
    PolicyConfig.Cost none = read(properties).policy("api").orElseThrow().cost();
    properties.put("limiter.policy.api.cost", "resolver:tokens");
    PolicyConfig.Cost unbounded = read(properties).policy("api").orElseThrow().cost();

    assertThat(none.source()).isNull();
    assertThat(unbounded.source()).isEqualTo(new KeySource(KeySource.Kind.RESOLVER, "tokens"));
    // any cost above the capacity (10) is rejected as exceeding it; so it is charged no more than
    // 11
    assertThat(unbounded.of("1000000", 1)).isEqualTo(11);
  }

  @Test
  void countIsAllOrAListOfStatuses() {
    Map<String, String> properties = api("fixed-window", "10/m");
    assertThat(read(properties).policy("api").orElseThrow().count().all()).isTrue();
    properties.put("limiter.policy.api.count", " Status:403, 401 ");

    PolicyConfig.Count count = read(properties).policy("api").orElseThrow().count();

    assertThat(count.statuses()).containsExactlyInAnyOrder(401, 403);
    assertThat(count).hasToString("status:401,403");
  }

  @Test
  void plansAreLimitsPerPlanWithASource() {
    Map<String, String> properties = api("token-bucket", "100/h burst=10");
    properties.put("limiter.policy.api.plan.pro.limits", "10000/h burst=500");
    properties.put("limiter.policy.api.plan.gold.limits", "50000/h burst=1000");
    properties.put("limiter.policy.api.plan-source", "role: gold, pro");
    properties.put("limiter.policy.api.on-unknown-plan", "reject");

    LimiterConfig config = read(properties);
    PolicyConfig.Plans plans = config.policy("api").orElseThrow().plans();

    assertThat(config.policies()).containsOnlyKeys("api");
    assertThat(plans.byName()).containsOnlyKeys("pro", "gold");
    assertThat(plans.byName().get("pro").name()).isEqualTo("api.plan.pro");
    assertThat(plans.byName().get("pro").limits())
        .containsExactly(Limit.bucket(10000, Duration.ofHours(1), 500));
    assertThat(plans.byName().get("pro").algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(plans.source().roles()).containsExactly("gold", "pro");
    assertThat(plans.rejectUnknown()).isTrue();
    assertThat(read(api("token-bucket", "1/s")).policy("api").orElseThrow().plans().any())
        .isFalse();
  }

  @Test
  void aPlanSetsItsLimitsOnlyAndNeedsASource() {
    Map<String, String> properties = api("fixed-window", "100/h");
    properties.put("limiter.policy.api.plan.pro.limits", "1000/h");
    properties.put("limiter.policy.api.plan.pro.algorithm", "token-bucket");

    ConfigException e = catchThrowableOfType(ConfigException.class, () -> read(properties));

    assertThat(e.getMessage())
        .contains(
            "limiter.policy.api.plan.pro.algorithm: a plan sets its limits only; every other"
                + " setting is the policy's (limiter.policy.api.algorithm), was 'token-bucket'")
        .contains("limiter.policy.api.plan-source: required with plans ([pro])");
    properties.remove("limiter.policy.api.plan.pro.algorithm");
    properties.put("limiter.policy.api.plan-source", "header:X-Plan");
    properties.put("limiter.policy.api.plan.pro.limits", "1000 an hour");
    failure(properties, "limiter.policy.api.plan.pro.limits", "'1000 an hour'");
  }

  @Test
  void aPlanSourceWithoutPlansIsNamed() {
    Map<String, String> properties = api("fixed-window", "100/h");
    properties.put("limiter.policy.api.plan-source", "header:X-Plan");

    failure(properties, "limiter.policy.api.plan-source", "'header:X-Plan'");
  }

  @Test
  void aMaxCostBelowThePermitsIsNamed() {
    Map<String, String> properties = api("fixed-window", "10/m");
    properties.put("limiter.policy.api.permits", "3");
    properties.put("limiter.policy.api.max-cost", "2");

    ConfigException e = failure(properties, "limiter.policy.api.max-cost", "'2'");

    assertThat(e.getMessage()).contains("below the policy's permits (3)");
  }

  @Test
  void aBadLimitInAListIsNamedByItself() {
    ConfigException e =
        failure(api("fixed-window", "10/s, 5/x, 1/h"), "limiter.policy.api.limits", "'5/x'");

    assertThat(e.getMessage()).contains("expected a duration").contains("was 'x'");
  }

  @Test
  void requiredPolicyKeysAreNamedWhenMissing() {
    assertThat(
            failure(Map.of("limiter.policy.api.limits", "10/s"), "limiter.policy.api.algorithm", "")
                .getMessage())
        .contains("required, but not set");
    assertThat(
            failure(
                    Map.of("limiter.policy.api.algorithm", "fixed-window"),
                    "limiter.policy.api.limits",
                    "")
                .getMessage())
        .contains("required, but not set");
    assertThat(failure(api("fixed-window", "  "), "limiter.policy.api.limits", "").getMessage())
        .contains("required, but not set");
  }

  @Test
  void burstOnAWindowAlgorithmIsRejectedOnTheLimitsKey() {
    ConfigException e =
        failure(
            api("sliding-window-counter", "10/s burst=20"),
            "limiter.policy.api.limits",
            "10/s burst=20");

    assertThat(e.getMessage())
        .contains("burst and initial apply to token-bucket and leaky-bucket only");
  }

  @Test
  void burstOnAWindowAlgorithmShowsTheBadLimitOnce() {
    ConfigException single =
        failure(api("fixed-window", "3/10s burst=5"), "limiter.policy.api.limits", "3/10s burst=5");
    ConfigException among =
        failure(api("fixed-window", "100/h, 3/10s burst=5"), "limiter.policy.api.limits", "3/10s");

    assertThat(single)
        .hasMessage(
            "limiter.policy.api.limits: policy 'api': burst and initial apply to"
                + " token-bucket and leaky-bucket only, not to fixed-window, was '3/10s burst=5'");
    assertThat(among)
        .hasMessage(
            "limiter.policy.api.limits: policy 'api': burst and initial apply to"
                + " token-bucket and leaky-bucket only, not to fixed-window, was '3/10s burst=5'");
  }

  @Test
  void aBadPolicyNameIsRejected() {
    Map<String, String> properties =
        Map.of(
            "limiter.policy.bad name.algorithm",
            "fixed-window",
            "limiter.policy.bad name.limits",
            "10/s");

    ConfigException e = catchThrowableOfType(ConfigException.class, () -> read(properties));

    assertThat(e.getMessage())
        .contains("limiter.policy.bad name.")
        .contains("policy name")
        .contains("'bad name'");
  }

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource({
    "nodelay, true, token-bucket",
    "max-delay, 1s, fixed-window",
    "delay-after, 2, sliding-window-log"
  })
  void shapingKeysOnNonLeakyPoliciesAreRejected(String suffix, String value, String algorithm) {
    Map<String, String> properties = api(algorithm, "10/s");
    properties.put("limiter.policy.api." + suffix, value);

    ConfigException e = failure(properties, "limiter.policy.api." + suffix, value);

    assertThat(e.getMessage()).contains("applies to leaky-bucket only, not to " + algorithm);
  }

  @ParameterizedTest
  @CsvSource({
    "limiter.policy.api.limit, 10/s",
    "limiter.policy.api.algorithms, fixed-window",
    "limiter.policy.api, x",
    "limiter.policy..limits, 10/s",
    "limiter.route.r.pattrn, /*",
    "limiter.route.r, /*"
  })
  void unknownKeysUnderPoliciesAndRoutesAreRejected(String key, String value) {
    Map<String, String> properties = api("fixed-window", "10/s");
    properties.put(key, value);

    ConfigException e = catchThrowableOfType(ConfigException.class, () -> read(properties));

    assertThat(e.key()).isEqualTo(key);
    assertThat(e.getMessage())
        .startsWith(key + ": unknown key; expected ")
        .contains(", was '" + value + "'");
  }

  @Test
  void aRouteReferencingAMissingPolicyIsRejected() {
    Map<String, String> properties = api("fixed-window", "10/s");
    properties.put("limiter.route.r.pattern", "/api/*");
    properties.put("limiter.route.r.policies", "api, nope");

    ConfigException e = failure(properties, "limiter.route.r.policies", "'nope'");

    assertThat(e.getMessage()).contains("no policy named 'nope'").contains("[api]");
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pattern  | api/*      | expected a servlet URL pattern",
        "pattern  | /api*      | expected a servlet URL pattern",
        "pattern  | /a/*/b     | expected a servlet URL pattern",
        "pattern  | *.         | expected a servlet URL pattern",
        "methods  | GET,PO ST  | expected HTTP methods",
        "methods  | GET;POST   | expected HTTP methods"
      })
  void aBadRouteValueNamesTheKeyAndTheValue(String suffix, String value, String expected) {
    Map<String, String> properties = api("fixed-window", "10/s");
    properties.put("limiter.route.r.pattern", "/api/*");
    properties.put("limiter.route.r.policies", "api");
    properties.put("limiter.route.r." + suffix, value);

    ConfigException e =
        failure(
            properties, "limiter.route.r." + suffix, value.split(",")[value.contains(",") ? 1 : 0]);

    assertThat(e.getMessage()).contains(expected);
  }

  @Test
  void requiredRouteKeysAreNamedWhenMissing() {
    Map<String, String> noPolicies = api("fixed-window", "10/s");
    noPolicies.put("limiter.route.r.pattern", "/api/*");
    Map<String, String> noPattern = api("fixed-window", "10/s");
    noPattern.put("limiter.route.r.policies", "api");

    assertThat(failure(noPolicies, "limiter.route.r.policies", "").getMessage())
        .contains("required");
    assertThat(failure(noPattern, "limiter.route.r.pattern", "").getMessage()).contains("required");
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "rejection-status   | 200   | expected an integer between 400 and 599",
        "rejection-status   | abc   | expected an integer",
        "unavailable-status | 600   | expected an integer between 400 and 599",
        "headers            | maybe | expected true or false",
        "legacy-headers     | 1     | expected true or false",
        "ipv6-prefix        | 129   | expected an integer between 1 and 128",
        "ipv6-prefix        | 0     | expected an integer between 1 and 128",
        "trusted-proxies    | 10.0.0.0/33 | expected CIDRs such as 10.0.0.0/8",
        "trusted-proxies    | proxy.example.com | expected CIDRs such as 10.0.0.0/8",
        "forwarded-header   | x-real-ip | expected x-forwarded-for or forwarded"
      })
  void aBadHttpValueNamesTheKeyAndTheValue(String suffix, String value, String expected) {
    ConfigException e =
        failure(
            Map.of("limiter.http." + suffix, value), "limiter.http." + suffix, "'" + value + "'");

    assertThat(e.getMessage()).contains(expected);
  }

  @Test
  void aBadTrustedProxyAmongGoodOnesIsNamedAlone() {
    ConfigException e =
        failure(
            Map.of("limiter.http.trusted-proxies", "10.0.0.0/8, 192.168.1.300, ::1/128"),
            "limiter.http.trusted-proxies",
            "'192.168.1.300'");

    assertThat(e.getMessage()).doesNotContain("::1/128'");
  }

  @Test
  void theForwardedHeaderAndNearLimitAreRead() {
    LimiterConfig config =
        read(
            Map.of(
                "limiter.http.forwarded-header",
                "Forwarded",
                "limiter.http.trusted-proxies",
                "10.0.0.0/8",
                "limiter.events.near-limit",
                "0.25"));

    assertThat(config.http().forwardedHeader()).isEqualTo(HttpSettings.ForwardedHeader.FORWARDED);
    assertThat(config.http().forwardedHeader().headerName()).isEqualTo("Forwarded");
    assertThat(config.http().trustedNetworks()).hasToString("[10.0.0.0/8]");
    assertThat(config.events().nearLimit()).isEqualTo(0.25);
    assertThat(read(Map.of()).http().forwardedHeader())
        .isEqualTo(HttpSettings.ForwardedHeader.X_FORWARDED_FOR);
    assertThat(read(Map.of()).events()).isEqualTo(EventSettings.DEFAULTS);
    assertThat(EventSettings.DEFAULTS.nearLimit()).isEqualTo(0.1);
  }

  @ParameterizedTest
  @CsvSource({"0", "-0.1", "1.5", "10%", "NaN", "abc"})
  void aNearLimitOutsideZeroToOneNamesTheKeyAndTheValue(String value) {
    ConfigException e =
        failure(
            Map.of("limiter.events.near-limit", value),
            "limiter.events.near-limit",
            "'" + value + "'");

    assertThat(e.getMessage()).contains("expected a fraction of the quota above 0 and at most 1");
  }

  @Test
  void aNearLimitOfOneIsAccepted() {
    assertThat(read(Map.of("limiter.events.near-limit", "1")).events().nearLimit()).isEqualTo(1.0);
  }

  @ParameterizedTest
  @CsvSource({
    "limiter.http.trusted-proxy, 10.0.0.0/8",
    "limiter.http.forwarded, forwarded",
    "limiter.http., x",
    "limiter.events.nearlimit, 0.2",
    "limiter.events.near-limit.x, 0.2"
  })
  void unknownKeysUnderHttpAndEventsAreRejectedShowingTheValue(String key, String value) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> read(Map.of(key, value)));

    assertThat(e.key()).isEqualTo(key);
    assertThat(e.getMessage())
        .startsWith(key + ": unknown key; expected ")
        .contains(", was '" + value + "'");
  }

  @Test
  void blankValuesCountAsUnset() {
    LimiterConfig config = read(Map.of("limiter.store", " ", "limiter.http.headers", ""));

    assertThat(config.store()).isEqualTo("memory");
    assertThat(config.http().headers()).isTrue();
  }

  @Test
  void shapingWaitsForTheDepartureLessItsOwnAndThePassingSlotsCappedAtMaxDelay() {
    long t = Duration.ofMillis(100).toNanos();
    Shaping shaping = new Shaping(false, Duration.ofSeconds(1), 2);

    // delay - (permits + delayAfter) intervals: 5t - 3t
    assertThat(shaping.waitNanos(admitted(5 * t), 1)).isEqualTo(2 * t);
    assertThat(shaping.waitNanos(admitted(5 * t), 2)).isEqualTo(t);
    assertThat(shaping.waitNanos(admitted(3 * t), 1)).isZero();
    assertThat(shaping.waitNanos(admitted(t), 1)).isZero();
    assertThat(shaping.waitNanos(admitted(50 * t), 1)).isEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(new Shaping(true, Duration.ofSeconds(1), 0).waitNanos(admitted(5 * t), 1)).isZero();
    assertThat(Shaping.NONE.waitNanos(admitted(5 * t), 1)).isZero();
    assertThat(
            new Shaping(false, Duration.ofSeconds(1), Long.MAX_VALUE).waitNanos(admitted(5 * t), 1))
        .isZero();
    assertThat(shaping.waitNanos(admitted(5 * t), Long.MAX_VALUE)).isZero();
    assertThat(
            shaping.waitNanos(io.github.limiter.Decision.limited("api", TEN_PER_SECOND, t, t), 1))
        .isZero();
  }

  @Test
  void likeNginxARequestToAnEmptyQueuePassesAtOnceAndABurstIsSpreadOverItsIntervals() {
    // Given nginx limit_req rate=10r/s burst=20 (no delay=): a leaky bucket of 10/s burst=20
    Map<String, String> properties = api("leaky-bucket", "10/s burst=20");
    PolicyConfig api = read(properties).policy("api").orElseThrow();
    ManualClock clock = ManualClock.at(0);
    io.github.limiter.Limiter limiter =
        io.github.limiter.Limiter.of(
            io.github.limiter.memory.InMemoryStore.builder().clock(clock).build());

    // When a burst of 20 (the bucket's capacity) arrives at one instant
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      io.github.limiter.Decision decision = limiter.decide(api.policy(), "k", 1);
      assertThat(decision.isAllowed()).as("request %d", i).isTrue();
      waits.add(api.shaping().waitNanos(decision, 1));
    }

    // Then the first passes at once, and the n-th waits n intervals: 20 requests over 1.9 s
    long t = Duration.ofMillis(100).toNanos();
    assertThat(waits.get(0)).isZero();
    for (int i = 1; i < 20; i++) {
      assertThat(waits.get(i)).as("request %d", i).isEqualTo(i * t);
    }
  }

  static final Limit TEN_PER_SECOND = Limit.of(10, Duration.ofSeconds(1));

  static io.github.limiter.Decision admitted(long delayNanos) {
    return io.github.limiter.Decision.allowed("api", TEN_PER_SECOND, 0, 0, delayNanos);
  }

  // Regression: a max-delay beyond 292 years (e.g. 200000d) passed validation, and the first
  // shaped request then failed with ArithmeticException converting it to nanoseconds.
  @Test
  void aMaxDelayTooLongForNanosecondsCapsNothingInsteadOfFailingARequest() {
    Map<String, String> properties = api("leaky-bucket", "10/s");
    properties.put("limiter.policy.api.max-delay", "200000d");
    Shaping shaping = read(properties).policy("api").orElseThrow().shaping();

    long wait = shaping.waitNanos(admitted(Duration.ofHours(5).toNanos()), 1);

    assertThat(wait).isEqualTo(Duration.ofHours(5).toNanos() - Duration.ofMillis(100).toNanos());
  }

  @Test
  void theConfigRecordsValidateThemselves() {
    assertThatThrownBy(() -> new Shaping(false, Duration.ofSeconds(-1), 0))
        .hasMessageContaining("maxDelay");
    assertThatThrownBy(() -> new Shaping(false, Duration.ZERO, -1))
        .hasMessageContaining("delayAfter");
    assertThatThrownBy(() -> new HttpSettings(200, 503, true, false, List.of(), 64))
        .hasMessageContaining("200");
    assertThatThrownBy(() -> new HttpSettings(429, 503, true, false, List.of(), 0))
        .hasMessageContaining("0");
    assertThatThrownBy(() -> new HttpSettings(429, 503, true, false, List.of("10.0.0.0/40"), 64))
        .hasMessageContaining("'10.0.0.0/40'");
    assertThatThrownBy(() -> new EventSettings(0)).hasMessageContaining("'0.0'");
    io.github.limiter.Policy policy =
        io.github.limiter.Policy.fixedWindow("p", Limit.of(1, Duration.ofSeconds(1)));
    assertThatThrownBy(
            () ->
                new PolicyConfig(
                    policy, KeySource.REMOTE_ADDRESS, MissingKey.ALLOW, 0, false, Shaping.NONE))
        .hasMessageContaining("permits")
        .hasMessageContaining("0");
    assertThat(PolicyConfig.of(policy).permits()).isEqualTo(1);
  }

  /**
   * Environment variables cannot be listed by key name, so policies and routes set only there are
   * named in limiter.policies and limiter.routes, then their keys are looked up as any other.
   */
  @Test
  void listedPoliciesAndRoutesNeedNoListedKeys() {
    // A lookup that finds keys it does not list, as MicroProfile Config finds
    // LIMITER_POLICY_API_LIMITS
    Map<String, String> hidden =
        Map.of(
            "limiter.policy.api.algorithm", "token-bucket",
            "limiter.policy.api.limits", "10/s",
            "limiter.route.all.pattern", "/*",
            "limiter.route.all.policies", "api");
    Map<String, String> listed = Map.of("limiter.policies", "api", "limiter.routes", " all ");
    ConfigLookup lookup =
        new ConfigLookup() {
          @Override
          public Optional<String> get(String key) {
            return Optional.ofNullable(listed.getOrDefault(key, hidden.get(key)));
          }

          @Override
          public Iterable<String> names() {
            return listed.keySet();
          }
        };

    LimiterConfig config = LimiterConfig.from(lookup);

    assertThat(config.policies().keySet()).containsExactly("api");
    assertThat(config.policy("api").orElseThrow().policy().limits())
        .containsExactly(Limit.parse("10/s"));
    assertThat(config.routes()).extracting(Route::name).containsExactly("all");
    assertThat(config.routes().get(0).policies()).containsExactly("api");
  }

  @Test
  void plansSetOnlyInEnvironmentVariablesAreListed() {
    // As MicroProfile Config finds LIMITER_POLICY_API_PLAN_PRO_LIMITS without listing it
    Map<String, String> hidden =
        Map.of(
            "limiter.policy.api.algorithm", "token-bucket",
            "limiter.policy.api.limits", "10/s",
            "limiter.policy.api.plan-source", "header:X-Plan",
            "limiter.policy.api.plan.pro.limits", "100/s");
    Map<String, String> listed =
        Map.of("limiter.policies", "api", "limiter.policy.api.plans", "pro");
    ConfigLookup lookup =
        new ConfigLookup() {
          @Override
          public Optional<String> get(String key) {
            return Optional.ofNullable(listed.getOrDefault(key, hidden.get(key)));
          }

          @Override
          public Iterable<String> names() {
            return listed.keySet();
          }
        };

    PolicyConfig.Plans plans = LimiterConfig.from(lookup).policy("api").orElseThrow().plans();

    assertThat(plans.byName()).containsOnlyKeys("pro");
    assertThat(plans.byName().get("pro").limits()).containsExactly(Limit.parse("100/s"));
  }

  /** Issue 17.6: docs/configuration.md promises every problem at once, not one per deployment. */
  @Test
  void everyProblemIsReportedAtOnce() {
    Map<String, String> properties = new LinkedHashMap<>(api("token-bucket", "10 per sec"));
    properties.putAll(
        Map.of(
            "limiter.policy.login.algorithm", "fixed_window",
            "limiter.policy.login.limits", "5/m",
            "limiter.policy.login.permits", "0",
            "limiter.route.r.pattern", "api/*",
            "limiter.route.r.policies", "api,nope",
            "limiter.http.headerz", "true",
            "limiter.stor", "redis"));

    ConfigException e = catchThrowableOfType(ConfigException.class, () -> read(properties));

    assertThat(e.problems())
        .extracting(ConfigException::key)
        .containsExactlyInAnyOrder(
            "limiter.stor",
            "limiter.policy.api.limits",
            "limiter.policy.login.algorithm",
            "limiter.policy.login.permits",
            "limiter.route.r.pattern",
            "limiter.http.headerz");
    assertThat(e.getMessage())
        .startsWith("6 configuration problems: ")
        .contains("'10 per sec'", "'fixed_window'", "'0'", "'api/*'", "'redis'");
    // A route naming a policy with a bad value is not blamed for it: the policy is reported once.
    assertThat(e.getMessage()).doesNotContain("no policy named 'api'");
  }

  @Test
  void readKeepsWhatIsValidAndAddsEveryProblem() {
    Map<String, String> properties = new LinkedHashMap<>(api("token-bucket", "10 per sec"));
    properties.putAll(
        api("fixed-window", "5/m").entrySet().stream()
            .collect(
                Collectors.toMap(p -> p.getKey().replace(".api.", ".ok."), Map.Entry::getValue)));
    List<ConfigException> problems = new ArrayList<>();

    LimiterConfig config = LimiterConfig.read(ConfigLookup.of(properties), problems);

    assertThat(config.policies().keySet()).containsExactly("ok");
    assertThat(problems)
        .extracting(ConfigException::key)
        .containsExactly("limiter.policy.api.limits");
  }

  @Test
  void aListedPolicyNeedsItsKeysAndAValidName() {
    ConfigException noKeys =
        failure(Map.of("limiter.policies", "api"), "limiter.policy.api.algorithm", "");
    assertThat(noKeys.problems())
        .extracting(ConfigException::key)
        .containsExactly("limiter.policy.api.algorithm", "limiter.policy.api.limits");
    failure(Map.of("limiter.policies", "api, bad name"), "limiter.policies", "bad name");
    failure(Map.of("limiter.routes", "r/1"), "limiter.routes", "r/1");
    // Listed and found by its keys alike: one policy, not two.
    assertThat(
            LimiterConfig.from(
                    ConfigLookup.of(with(api("fixed-window", "5/s"), "limiter.policies", "api")))
                .policies())
        .hasSize(1);
  }

  /**
   * An environment variable of no known key is a typo, or a policy missing from limiter.policies.
   */
  @ParameterizedTest
  @CsvSource({
    "LIMITER_POLICY_API_LIMTS, 10/s",
    "LIMITER_POLICY_LOGIN_LIMITS, 5/m",
    "LIMITER_ROUTE_ALL_PATERN, /*",
    "LIMITER_HTTP_HEADRES, false",
    "LIMITER_EVENTS_NEAR_LIMT, 0.2"
  })
  void anEnvironmentVariableOfNoKeyFails(String variable, String value) {
    Map<String, String> properties = with(api("token-bucket", "10/s"), variable, value);
    ConfigException e = failure(properties, variable, value);
    assertThat(e).hasMessageContaining("environment form");
  }

  @Test
  void environmentVariablesOfKnownKeysPass() {
    Map<String, String> properties =
        with(
            api("token-bucket", "10/s"),
            "LIMITER_POLICY_API_LIMITS",
            "20/s",
            "LIMITER_POLICY_MY_API_KEY",
            "constant",
            "limiter.policies",
            "my-api",
            "LIMITER_HTTP_LEGACY_HEADERS",
            "true",
            "LIMITER_EVENTS_NEAR_LIMIT",
            "0.2",
            "LIMITER_POLICIES",
            "my-api",
            "LIMITER_STORE",
            "memory");
    properties.put("limiter.policy.my-api.algorithm", "fixed-window");
    properties.put("limiter.policy.my-api.limits", "1/s");

    assertThat(read(properties).policies().keySet()).containsExactly("api", "my-api");
  }

  /** limiter.stor=redis would leave the in-memory default in place, unnoticed: it fails. */
  @ParameterizedTest
  @CsvSource({
    "limiter.stor, redis",
    "LIMITER_STOR, redis",
    "limiter.policy, api",
    "LIMITER_POLICY, api"
  })
  void anUnknownTopLevelKeyFails(String key, String value) {
    failure(Map.of(key, value), key, value);
  }

  @Test
  void aConcurrencyPolicyIsABareNumberInFlightWithARetryAfterHint() {
    // Given at most 4 in flight, once with the default hint and once with 250ms
    LimiterConfig plain = read(api("concurrency", "4"));
    LimiterConfig hinted =
        read(with(api("concurrency", " 4 "), "limiter.policy.api.retry-after", "250ms"));

    // Then the limit is 4, and its period is the hint a rejection gives
    Policy policy = plain.policy("api").orElseThrow().policy();
    assertThat(policy.algorithm()).isEqualTo(Algorithm.CONCURRENCY);
    assertThat(policy.limits()).containsExactly(Limit.of(4, Duration.ofSeconds(1)));
    assertThat(hinted.policy("api").orElseThrow().policy().limits())
        .containsExactly(Limit.of(4, Duration.ofMillis(250)));
  }

  @ParameterizedTest(name = "{0}: {1}={2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "concurrency  | limits      | 4/s          | most requests in flight",
        "concurrency  | limits      | 0            | whole number from 1 to 1000000",
        "concurrency  | limits      | 4, 8         | whole number",
        "concurrency  | limits      | 99999999999  | whole number",
        "token-bucket | limits      | 4            | with algorithm=concurrency",
        "fixed-window | limits      | 10           | with algorithm=concurrency",
        "concurrency  | retry-after | 0s           | expected a positive duration",
        "concurrency  | retry-after | 2h           | between 1ms and 1h",
        "concurrency  | retry-after | soon         | expected a duration",
        "token-bucket | retry-after | 1s           | applies to concurrency only",
        "concurrency  | count       | status:401   | nothing to count",
        "concurrency  | lease       | on           | not for concurrency",
        "concurrency  | nodelay     | true         | applies to leaky-bucket only",
      })
  void aBadConcurrencySettingFailsNamingKeyAndValue(
      String algorithm, String key, String value, String message) {
    Map<String, String> properties =
        key.equals("limits")
            ? api(algorithm, value)
            : with(
                api(algorithm, algorithm.equals("concurrency") ? "4" : "10/s"),
                "limiter.policy.api." + key,
                value);
    ConfigException e = failure(properties, "limiter.policy.api." + key, value);
    assertThat(e.getMessage()).contains(message);
  }

  @Test
  void aConcurrencyPlanIsABareNumberToo() {
    LimiterConfig config =
        read(
            with(
                api("concurrency", "2"),
                "limiter.policy.api.plan.pro.limits",
                "8",
                "limiter.policy.api.plan-source",
                "header:X-Plan",
                "limiter.policy.api.retry-after",
                "3s"));
    Policy pro = config.policy("api").orElseThrow().plans().byName().get("pro");
    assertThat(pro.limits()).containsExactly(Limit.of(8, Duration.ofSeconds(3)));
    failure(
        with(
            api("concurrency", "2"),
            "limiter.policy.api.plan.pro.limits",
            "8/s",
            "limiter.policy.api.plan-source",
            "header:X-Plan"),
        "limiter.policy.api.plan.pro.limits",
        "8/s");
  }

  private static Map<String, String> with(Map<String, String> base, String... pairs) {
    Map<String, String> copy = new HashMap<>(base);
    for (int i = 0; i < pairs.length; i += 2) {
      copy.put(pairs[i], pairs[i + 1]);
    }
    return copy;
  }
}
