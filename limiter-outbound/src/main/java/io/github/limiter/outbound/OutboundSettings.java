package io.github.limiter.outbound;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.PolicyDeclarations;
import io.github.limiter.internal.config.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The settings of an outbound policy, {@code limiter.outbound.NAME.*}, each declared once: those
 * whose meaning is a policy's are {@link PolicyDeclarations}' own declarations, the others are
 * declared here. docs/outbound.md shows the table ({@code OutboundDocsTest} keeps the two alike).
 */
final class OutboundSettings {

  private OutboundSettings() {}

  /** The upstreams' origins a client filter applies the policy to. */
  static final Setting<List<String>> UPSTREAMS =
      Setting.<List<String>>of("upstreams", OutboundSettings::origins, List.of())
          .doc(
              "origins",
              "none: by name only",
              "https://api.partner.example",
              "the upstreams whose calls the client filter limits under this policy, each"
                  + " `scheme://host[:port]`; the key is the upstream called, so each has its own"
                  + " budget");

  static final Setting<KeySource> CREDENTIAL =
      Setting.of("credential", PolicyConfig.Cost::parseSource, null)
          .doc(
              "`header:NAME`, `resolver:NAME`",
              "none: one budget per upstream",
              "header:Authorization",
              "a separate budget per credential to the upstream: the outgoing request's header, or"
                  + " a `KeyResolver` over it; only a digest of it is stored");

  static final Setting<Duration> MAX_WAIT =
      Setting.of(
              "max-wait",
              text -> bounded(text, Duration.ZERO, Duration.ofMinutes(5)),
              Duration.ZERO)
          .doc(
              "duration, 0-5m",
              "`0s`",
              "2s",
              "how long a call may wait for the budget or for an upstream's block; never longer");

  static final Setting<Boolean> PROCEED =
      Setting.of("after-max-wait", OutboundSettings::proceed, false)
          .doc(
              "`fail`, `proceed`",
              "`fail`",
              "proceed",
              "when the local budget is still spent after `max-wait`: throw"
                  + " `OutboundLimitException` (with the wait), or call anyway; an upstream's block"
                  + " always fails");

  static final Setting<Duration> MAX_BLOCK =
      Setting.of(
              "max-block",
              text -> bounded(text, Duration.ofSeconds(1), Duration.ofDays(1)),
              Duration.ofMinutes(5))
          .doc(
              "duration, 1s-1d",
              "`5m`",
              "1m",
              "the longest an upstream's `Retry-After` or reset blocks calls to it; a longer one"
                  + " is cut to this, one over a day (or negative, or malformed) is ignored and"
                  + " logged");

  static final Setting<Duration> MAX_CALL_TIME =
      Setting.of(
              "max-call-time",
              text -> bounded(text, Duration.ofSeconds(1), Duration.ofDays(1)),
              Duration.ofMinutes(5))
          .only(Algorithm.CONCURRENCY)
          .doc(
              "duration, 1s-1d",
              "`5m`",
              "1m",
              "`concurrency` only: a call not ended within this time gives its permit back, and a"
                  + " warning says so; a safety net for a client whose failed calls cannot be seen"
                  + " to end. Set it above the client's connect and read timeouts");

  static final Setting<Long> RETRY_ATTEMPTS =
      Setting.of("retry-attempts", ConfigReader.integer(1, 10), 1L)
          .doc(
              "int, 1-10",
              "`1`: no retry",
              "3",
              "how often an idempotent call refused with 429 or 503 is sent in all; a body is sent"
                  + " again only if it can be repeated");

  static final Setting<Duration> RETRY_MAX_TIME =
      Setting.of(
              "retry-max-time",
              text -> bounded(text, Duration.ZERO, Duration.ofMinutes(10)),
              Duration.ofSeconds(30))
          .doc(
              "duration, 0-10m",
              "`30s`",
              "10s",
              "no retry starts later than this after the first attempt");

  static final Setting<Duration> RETRY_BACKOFF =
      Setting.of(
              "retry-backoff",
              text -> bounded(text, Duration.ofMillis(1), Duration.ofMinutes(1)),
              Duration.ofMillis(200))
          .doc(
              "duration, 1ms-1m",
              "`200ms`",
              "500ms",
              "without a `Retry-After`, retry n waits a random time up to `retry-backoff` × 2ⁿ⁻¹"
                  + " (full jitter), at most `retry-max-backoff`");

  static final Setting<Duration> RETRY_MAX_BACKOFF =
      Setting.of(
              "retry-max-backoff",
              text -> bounded(text, Duration.ofMillis(1), Duration.ofMinutes(10)),
              Duration.ofSeconds(10))
          .doc("duration, 1ms-10m", "`10s`", "30s", "the longest one backoff");

  /** The table of docs/outbound.md, in order. */
  static final List<Setting<?>> TABLE =
      List.of(
          PolicyDeclarations.ALGORITHM,
          PolicyDeclarations.LIMITS,
          PolicyDeclarations.RETRY_AFTER,
          PolicyDeclarations.PERMITS,
          PolicyDeclarations.FAILURE,
          UPSTREAMS,
          CREDENTIAL,
          MAX_WAIT,
          PROCEED,
          MAX_BLOCK,
          MAX_CALL_TIME,
          RETRY_ATTEMPTS,
          RETRY_MAX_TIME,
          RETRY_BACKOFF,
          RETRY_MAX_BACKOFF);

  static final Set<String> NAMES = Setting.names(TABLE);

  private static List<String> origins(String text) {
    return ConfigReader.list(text).stream().map(OutboundSettings::origin).toList();
  }

  /** {@code scheme://host[:port]}, lower case, with the scheme's default port made explicit. */
  static String origin(String text) {
    java.net.URI uri;
    try {
      uri = new java.net.URI(text.trim());
    } catch (java.net.URISyntaxException e) {
      uri = null;
    }
    String scheme = uri == null || uri.getScheme() == null ? "" : uri.getScheme();
    scheme = scheme.toLowerCase(Locale.ROOT);
    if (uri == null
        || !(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawUserInfo() != null
        || !(uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))
        || uri.getRawQuery() != null) {
      throw new IllegalArgumentException(
          "expected origins such as https://api.partner.example or http://127.0.0.1:8080"
              + " (scheme, host and port only), was '"
              + text.trim()
              + "'");
    }
    return OutboundConfig.origin(uri);
  }

  private static boolean proceed(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "fail" -> false;
      case "proceed" -> true;
      default -> throw new IllegalArgumentException("expected fail or proceed, was '" + text + "'");
    };
  }

  private static Duration bounded(String text, Duration least, Duration most) {
    // A duration is positive, but a wait of none is one of these settings' values
    Duration value =
        least.isZero() && text.trim().matches("0+(ms|s|m|h)?")
            ? Duration.ZERO
            : Limit.parseDuration(text);
    if (value.compareTo(least) < 0 || value.compareTo(most) > 0) {
      throw new IllegalArgumentException(
          "expected a duration from "
              + least.toMillis()
              + "ms to "
              + most.toMillis()
              + "ms, was '"
              + text.trim()
              + "'");
    }
    return value;
  }
}
