package io.github.limiter.internal.config;

import io.github.limiter.Limit;
import io.github.limiter.internal.http.Cidr;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.internal.http.HttpSettings.ForwardedHeader;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The core's settings besides a policy's ({@link PolicySettings}), each declared once: the
 * top-level settings, a route's ({@code limiter.route.NAME.*}), and the {@code http}, {@code
 * events} and {@code metrics} sections. A route's settings are named after {@code
 * limiter.route.NAME.}; the others whole. docs/configuration.md shows their tables ({@link
 * DeclaredSettings}).
 */
final class CoreSettings {

  private CoreSettings() {}

  static final Setting<String> STORE =
      Setting.of(LimiterConfig.STORE_KEY, Function.identity(), "memory")
          .doc(
              "name",
              "`memory`",
              "redis",
              "the store: `memory`, `redis` (with `limiter-redis`), or a custom `StoreFactory`");

  /** Listed policy names, which {@link LimiterConfig} reads with those found by their keys. */
  static final Setting<String> POLICIES =
      Setting.of(LimiterConfig.POLICIES_KEY, Function.identity(), null)
          .doc(
              "list of names",
              "none",
              "api, login",
              "policies whose settings are set only in environment variables (see"
                  + " [Environment variables](#environment-variables)); a policy whose"
                  + " `limiter.policy.NAME.*` settings are in a properties file or system"
                  + " properties needs no entry");

  static final Setting<String> ROUTES =
      Setting.of(LimiterConfig.ROUTES_KEY, Function.identity(), null)
          .doc(
              "list of names",
              "none",
              "all",
              "routes whose settings are set only in environment variables, likewise");

  static final Setting<String> OUTBOUNDS =
      Setting.of(LimiterConfig.OUTBOUNDS_KEY, Function.identity(), null)
          .doc(
              "list of names",
              "none",
              "partner",
              "outbound policies (`limiter.outbound.NAME.*`) whose settings are set only in"
                  + " environment variables, likewise");

  static final List<Setting<?>> TOP = List.of(STORE, POLICIES, ROUTES, OUTBOUNDS);

  static final Setting<String> ROUTE_PATTERN =
      Setting.of("pattern", CoreSettings::pattern, null)
          .required()
          .doc(
              "URL pattern",
              "required",
              "/api/*",
              "servlet URL pattern: exact, `/prefix/*`, `*.ext`, `/*`");

  static final Setting<Set<String>> ROUTE_METHODS =
      Setting.<Set<String>>of("methods", CoreSettings::methods, Set.of())
          .doc("methods", "all", "GET,POST", "the HTTP methods the route applies to");

  /** The policies' names, which {@link LimiterConfig} checks against those configured. */
  static final Setting<List<String>> ROUTE_POLICIES =
      Setting.of("policies", ConfigReader::list, null)
          .required()
          .doc(
              "policy names",
              "required",
              "api,login",
              "the policies a matching request needs, all-or-nothing");

  static final Setting<Criticality> ROUTE_CRITICALITY =
      Setting.of("criticality", Criticality::parse, null)
          .doc(
              "`critical`, `default`, `sheddable`",
              "the policies'",
              "critical",
              "how much the route's requests matter under a concurrency limit, unless a policy's"
                  + " header or resolver says (see [Criticality](adaptive-concurrency.md#criticality))");

  static final List<Setting<?>> ROUTE =
      List.of(ROUTE_PATTERN, ROUTE_METHODS, ROUTE_POLICIES, ROUTE_CRITICALITY);

  private static final HttpSettings HTTP_DEFAULTS = HttpSettings.DEFAULTS;

  static final Setting<Long> REJECTION_STATUS =
      Setting.of(
              LimiterConfig.HTTP_PREFIX + "rejection-status",
              ConfigReader.integer(400, 599),
              (long) HTTP_DEFAULTS.rejectionStatus())
          .doc("4xx/5xx", "`429`", "429", "status of a rejection");

  static final Setting<Long> UNAVAILABLE_STATUS =
      Setting.of(
              LimiterConfig.HTTP_PREFIX + "unavailable-status",
              ConfigReader.integer(400, 599),
              (long) HTTP_DEFAULTS.unavailableStatus())
          .doc("4xx/5xx", "`503`", "503", "status when a fail-closed store cannot decide");

  static final Setting<Boolean> HEADERS =
      Setting.of(
              LimiterConfig.HTTP_PREFIX + "headers",
              ConfigReader::parseBoolean,
              HTTP_DEFAULTS.headers())
          .doc("boolean", "`true`", "false", "send `RateLimit-Policy` and `RateLimit`");

  static final Setting<Boolean> LEGACY_HEADERS =
      Setting.of(
              LimiterConfig.HTTP_PREFIX + "legacy-headers",
              ConfigReader::parseBoolean,
              HTTP_DEFAULTS.legacyHeaders())
          .doc(
              "boolean",
              "`false`",
              "true",
              "also send `X-RateLimit-Limit`, `-Remaining`, `-Reset`");

  static final Setting<List<String>> TRUSTED_PROXIES =
      Setting.of(
              LimiterConfig.HTTP_PREFIX + "trusted-proxies",
              CoreSettings::proxies,
              HTTP_DEFAULTS.trustedProxies())
          .doc(
              "CIDR list",
              "none",
              "10.0.0.0/8, ::1/128",
              "peers whose forwarding header is believed");

  static final Setting<ForwardedHeader> FORWARDED_HEADER =
      Setting.of(
              LimiterConfig.HTTP_PREFIX + "forwarded-header",
              ForwardedHeader::fromConfigName,
              HTTP_DEFAULTS.forwardedHeader())
          .doc(
              "`x-forwarded-for`, `forwarded`",
              "`x-forwarded-for`",
              "forwarded",
              "the one header your proxies write (RFC 7239 `Forwarded` or `X-Forwarded-For`)");

  static final Setting<Long> IPV6_PREFIX =
      Setting.of(
              LimiterConfig.HTTP_PREFIX + "ipv6-prefix",
              ConfigReader.integer(1, 128),
              (long) HTTP_DEFAULTS.ipv6Prefix())
          .doc("1-128", "`64`", "56", "IPv6 clients are grouped by this prefix");

  static final List<Setting<?>> HTTP =
      List.of(
          REJECTION_STATUS,
          UNAVAILABLE_STATUS,
          HEADERS,
          LEGACY_HEADERS,
          TRUSTED_PROXIES,
          FORWARDED_HEADER,
          IPV6_PREFIX);

  static final Setting<Double> NEAR_LIMIT =
      Setting.of(
              LimiterConfig.EVENTS_PREFIX + "near-limit",
              EventSettings::parseFraction,
              EventSettings.DEFAULTS.nearLimit())
          .doc(
              "fraction in (0, 1]",
              "`0.1`",
              "0.2",
              "`RateLimitNearLimit` fires when at most this share of the quota is left");

  static final List<Setting<?>> EVENTS = List.of(NEAR_LIMIT);

  /** Off unless set: a deployment's limits stay as deployed but for operators' changes. */
  static final Setting<Duration> CONFIG_REFRESH =
      Setting.<Duration>of(LimiterConfig.CONFIG_PREFIX + "refresh", CoreSettings::period, null)
          .doc(
              "duration",
              "off",
              "30s",
              "re-read the policies' limits from the configuration sources this often, validated"
                  + " as at deployment; a bad value is refused and the limits stay");

  static final List<Setting<?>> CONFIG = List.of(CONFIG_REFRESH);

  static final Setting<Boolean> ADMIN_ENABLED =
      Setting.of(LimiterConfig.ADMIN_PREFIX + "enabled", ConfigReader::parseBoolean, false)
          .doc(
              "boolean",
              "`false`",
              "true",
              "serve the admin API, which changes limits and overrides; needs a role or a token");

  static final Setting<String> ADMIN_PATH =
      Setting.of(LimiterConfig.ADMIN_PREFIX + "path", CoreSettings::adminPath, "/limiter/admin")
          .doc("path", "`/limiter/admin`", "/ops/limits", "where the admin API is served");

  static final Setting<String> ADMIN_ROLE =
      Setting.of(LimiterConfig.ADMIN_PREFIX + "role", Function.identity(), null)
          .doc("role", "none", "limiter-admin", "a container role that may use the admin API");

  static final Setting<String> ADMIN_TOKEN =
      Setting.of(LimiterConfig.ADMIN_PREFIX + "token", CoreSettings::token, null)
          .doc(
              "secret",
              "none",
              "${LIMITER_ADMIN_TOKEN}",
              "a bearer token that may use the admin API, at least 16 characters; never logged");

  static final List<Setting<?>> ADMIN = List.of(ADMIN_ENABLED, ADMIN_PATH, ADMIN_ROLE, ADMIN_TOKEN);

  static final Setting<Boolean> METRICS_ENABLED =
      metrics(
          "enabled",
          "record on the metrics backends the server offers; `false` switches them all off"
              + " (see [Operations](operations.md#metrics))");
  static final Setting<Boolean> MICROPROFILE_ENABLED =
      metrics("microprofile.enabled", "record on MicroProfile Metrics, if present");
  static final Setting<Boolean> OPENTELEMETRY_ENABLED =
      metrics("opentelemetry.enabled", "record on OpenTelemetry, if present");
  static final Setting<Boolean> MICROMETER_ENABLED =
      metrics("micrometer.enabled", "record on Micrometer, if present");

  static final List<Setting<?>> METRICS =
      List.of(METRICS_ENABLED, MICROPROFILE_ENABLED, OPENTELEMETRY_ENABLED, MICROMETER_ENABLED);

  private static Setting<Boolean> metrics(String name, String meaning) {
    return Setting.of(LimiterConfig.METRICS_PREFIX + name, ConfigReader::parseBoolean, true)
        .doc("boolean", "`true`", "false", meaning);
  }

  private static final TopKeysSettings TOP_KEYS_DEFAULTS = TopKeysSettings.DEFAULTS;

  static final Setting<Boolean> TOP_KEYS_ENABLED =
      Setting.of(
              LimiterConfig.TOP_KEYS_PREFIX + "enabled",
              ConfigReader::parseBoolean,
              TOP_KEYS_DEFAULTS.enabled())
          .doc(
              "boolean",
              "`false`",
              "true",
              "count each policy's keys with the most requests and rejections");

  static final Setting<Long> TOP_KEYS_SIZE =
      Setting.of(
              LimiterConfig.TOP_KEYS_PREFIX + "size",
              ConfigReader.integer(1, TopKeysSettings.MAX_SIZE),
              (long) TOP_KEYS_DEFAULTS.size())
          .doc("1-1000", "`10`", "20", "how many keys each top-keys list shows");

  static final Setting<Duration> TOP_KEYS_WINDOW =
      Setting.of(
              LimiterConfig.TOP_KEYS_PREFIX + "window",
              TopKeysSettings::window,
              TOP_KEYS_DEFAULTS.window())
          .doc(
              "duration, 1s-1h",
              "`1m`",
              "5m",
              "the lists cover the current window and the one before it");

  static final List<Setting<?>> TOP_KEYS =
      List.of(TOP_KEYS_ENABLED, TOP_KEYS_SIZE, TOP_KEYS_WINDOW);

  /** The names of {@code settings} after {@code prefix}: {@code headers} of {@code http}'s. */
  static Set<String> names(String prefix, List<Setting<?>> settings) {
    Set<String> names = new TreeSet<>();
    settings.forEach(setting -> names.add(setting.name().substring(prefix.length())));
    return Set.copyOf(names);
  }

  private static String adminPath(String text) {
    if (!text.matches("(/[A-Za-z0-9._~-]+)+")) {
      throw new IllegalArgumentException(
          "expected a path such as '/limiter/admin', without a trailing '/', was '" + text + "'");
    }
    return text;
  }

  /** A secret: its value is never shown, even in the message that refuses it. */
  private static String token(String text) {
    if (text.strip().length() < 16) {
      throw new IllegalArgumentException(
          "expected at least 16 characters (the value is not shown)");
    }
    return text.strip();
  }

  private static Duration period(String text) {
    Duration period = Limit.parseDuration(text);
    if (period.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("expected a period of at least 1s, was '" + text + "'");
    }
    return period;
  }

  private static String pattern(String pattern) {
    if (!Route.isValidPattern(pattern)) {
      throw new IllegalArgumentException(
          "expected a servlet URL pattern such as '/api/*', '/login' or '*.json', was '"
              + pattern
              + "'");
    }
    return pattern;
  }

  private static Set<String> methods(String text) {
    Set<String> methods = new TreeSet<>();
    for (String method : ConfigReader.list(text)) {
      if (!method.matches("[A-Za-z]+")) {
        throw new IllegalArgumentException(
            "expected HTTP methods such as GET,POST, was '" + method + "'");
      }
      methods.add(method.toUpperCase(Locale.ROOT));
    }
    return methods;
  }

  private static List<String> proxies(String text) {
    List<String> proxies = ConfigReader.list(text);
    proxies.forEach(Cidr::parse);
    return proxies;
  }
}
