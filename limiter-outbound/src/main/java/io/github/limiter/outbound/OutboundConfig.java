package io.github.limiter.outbound;

import io.github.limiter.Algorithm;
import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyDeclarations;
import io.github.limiter.internal.config.Setting;
import io.github.limiter.spi.ConfigLookup;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One outbound policy, {@code limiter.outbound.NAME.*}: the limits of calls to an upstream, keyed
 * by the upstream (scheme, host, port) and optionally a credential, and what to do when the budget
 * is spent or the upstream asks for a pause. Its policy is an ordinary {@link Policy}, decided by
 * the configured store like an inbound one; its keys are declared once ({@link OutboundSettings},
 * reusing {@link PolicyDeclarations}' where the meaning is the same).
 *
 * @param policy the limits, algorithm and failure mode, named NAME
 * @param permits what one call costs
 * @param upstreams the origins ({@code https://host:443}) a client filter applies it to
 * @param credential where a call's credential comes from; null: one budget per upstream
 * @param maxWait the longest a call waits for the budget or an upstream's block
 * @param proceed whether a call goes out anyway when the budget is still spent after maxWait
 * @param maxBlock the longest an upstream's signal blocks calls to it
 * @param retry the retries of idempotent calls refused with 429 or 503
 * @param maxCallTime under a concurrency policy, how long a call may hold its permit before it is
 *     given back whether the call ended or not
 */
record OutboundConfig(
    Policy policy,
    long permits,
    List<String> upstreams,
    KeySource credential,
    Duration maxWait,
    boolean proceed,
    Duration maxBlock,
    Retry retry,
    Duration maxCallTime) {

  static final String PREFIX = "limiter.outbound.";

  /**
   * Names outbound policies whose keys are found only by looking them up, as in environment
   * variables.
   */
  static final String LISTED_KEY = LimiterConfig.OUTBOUNDS_KEY;

  /**
   * Retries of idempotent calls refused with 429 or 503: at most {@code attempts} sends in all,
   * none started later than {@code maxTime} after the first; without a Retry-After, exponential
   * backoff from {@code backoff}, capped at {@code maxBackoff}, with full jitter.
   */
  public record Retry(int attempts, Duration maxTime, Duration backoff, Duration maxBackoff) {

    /** No retry. */
    public static final Retry NONE =
        new Retry(1, Duration.ofSeconds(30), Duration.ofMillis(200), Duration.ofSeconds(10));

    public Retry {
      if (attempts < 1) {
        throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
      }
      Objects.requireNonNull(maxTime, "maxTime");
      Objects.requireNonNull(backoff, "backoff");
      Objects.requireNonNull(maxBackoff, "maxBackoff");
    }
  }

  public OutboundConfig {
    Objects.requireNonNull(policy, "policy");
    upstreams = List.copyOf(upstreams);
    Objects.requireNonNull(maxWait, "maxWait");
    Objects.requireNonNull(maxBlock, "maxBlock");
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(maxCallTime, "maxCallTime");
  }

  /** The policy's name, NAME. */
  public String name() {
    return policy.name();
  }

  /** An outbound policy with the defaults but for its limits: no wait, no retry, 5 min blocks. */
  public static OutboundConfig of(Policy policy) {
    return new OutboundConfig(
        policy,
        1,
        List.of(),
        null,
        Duration.ZERO,
        false,
        OutboundSettings.MAX_BLOCK.fallback(),
        Retry.NONE,
        OutboundSettings.MAX_CALL_TIME.fallback());
  }

  /**
   * {@code scheme://host:port} of an absolute http or https {@code uri}, the form of {@link
   * #upstreams}: the path and the rest are not the upstream's.
   *
   * @throws IllegalArgumentException showing the URI
   */
  public static String origin(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "expected an absolute http or https URI, was '" + uri + "'");
    }
    int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
    return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
  }

  /**
   * Every outbound policy of {@code config}, by name, validated whole.
   *
   * @throws ConfigException naming every bad key and its value, all at once
   */
  public static Map<String, OutboundConfig> readAll(ConfigLookup config) {
    ConfigReader reader = new ConfigReader(config);
    List<ConfigException> problems = new ArrayList<>();
    // Found by their keys' names, or listed: environment variables cannot be listed by key name.
    Set<String> names = new TreeSet<>();
    ConfigReader.Names declared = reader.names(PREFIX, OutboundSettings.NAMES, problems);
    names.addAll(declared.all());
    names.removeAll(declared.withUnknownKeys()); // read once its unknown key is fixed
    try {
      names.addAll(
          reader.listedNames(
              LISTED_KEY,
              Policy::isValidName,
              "outbound policy names (1-64 letters, digits, '.', '_' or '-', starting with a letter"
                  + " or digit)"));
    } catch (ConfigException e) {
      problems.add(e);
    }
    List<String> known = new ArrayList<>();
    names.forEach(
        name -> OutboundSettings.NAMES.forEach(key -> known.add(PREFIX + name + "." + key)));
    try {
      reader.checkEnvironmentForms(
          PREFIX, known, "an outbound policy known by a key or listed in " + LISTED_KEY);
    } catch (ConfigException e) {
      problems.add(e);
    }
    Map<String, OutboundConfig> policies = new LinkedHashMap<>();
    for (String name : names) {
      OutboundConfig read = read(reader, name, problems);
      if (read != null) {
        policies.put(name, read);
      }
    }
    if (!problems.isEmpty()) {
      throw ConfigException.all(problems);
    }
    return policies;
  }

  private static OutboundConfig read(
      ConfigReader reader, String name, List<ConfigException> problems) {
    String base = PREFIX + name + ".";
    if (!Policy.isValidName(name)) {
      problems.add(
          new ConfigException(
              base + PolicyDeclarations.LIMITS.name(),
              "an outbound policy's name is 1-64 letters, digits, '.', '_' or '-', starting with a"
                  + " letter or digit, was '"
                  + name
                  + "'"));
      return null;
    }
    int before = problems.size();
    Values values = new Values(reader, base, problems);
    Algorithm algorithm = values.get(PolicyDeclarations.ALGORITHM);
    for (Setting<?> setting : OutboundSettings.TABLE) {
      if (setting != PolicyDeclarations.ALGORITHM && setting.appliesTo(algorithm)) {
        values.get(setting);
      } else if (algorithm != null && !setting.appliesTo(algorithm)) {
        reader
            .text(base + setting.name())
            .ifPresent(
                value ->
                    problems.add(
                        new ConfigException(
                            base + setting.name(),
                            "applies to "
                                + setting.algorithms()
                                + " only, not to "
                                + algorithm
                                + ", was '"
                                + value
                                + "'")));
      }
    }
    String limitsText = values.get(PolicyDeclarations.LIMITS);
    if (problems.size() > before || algorithm == null || limitsText == null) {
      return null;
    }
    try {
      String limitsKey = base + PolicyDeclarations.LIMITS.name();
      List<Limit> limits =
          reader.parse(
              limitsKey,
              limitsText,
              t ->
                  PolicyDeclarations.limits(
                      t, algorithm, values.get(PolicyDeclarations.RETRY_AFTER)));
      Policy policy =
          reader.parse(
              limitsKey,
              limitsText,
              t -> new Policy(name, algorithm, limits, values.get(PolicyDeclarations.FAILURE)));
      long permits = values.get(PolicyDeclarations.PERMITS);
      long capacity = PolicyDeclarations.capacity(algorithm, limits);
      if (permits > capacity) {
        throw new ConfigException(
            base + PolicyDeclarations.PERMITS.name(),
            "a call would cost more than the smallest limit can ever admit ("
                + capacity
                + "), so every call would be refused, was '"
                + permits
                + "'");
      }
      Duration backoff = values.get(OutboundSettings.RETRY_BACKOFF);
      Duration maxBackoff = values.get(OutboundSettings.RETRY_MAX_BACKOFF);
      if (maxBackoff.compareTo(backoff) < 0) {
        throw new ConfigException(
            base + OutboundSettings.RETRY_MAX_BACKOFF.name(),
            "below "
                + base
                + OutboundSettings.RETRY_BACKOFF.name()
                + " ("
                + backoff.toMillis()
                + "ms), was '"
                + reader.text(base + OutboundSettings.RETRY_MAX_BACKOFF.name()).orElse("")
                + "'");
      }
      return new OutboundConfig(
          policy,
          permits,
          values.get(OutboundSettings.UPSTREAMS),
          values.get(OutboundSettings.CREDENTIAL),
          values.get(OutboundSettings.MAX_WAIT),
          values.get(OutboundSettings.PROCEED),
          values.get(OutboundSettings.MAX_BLOCK),
          new Retry(
              Math.toIntExact(values.get(OutboundSettings.RETRY_ATTEMPTS)),
              values.get(OutboundSettings.RETRY_MAX_TIME),
              backoff,
              maxBackoff),
          values.get(OutboundSettings.MAX_CALL_TIME));
    } catch (ConfigException e) {
      problems.add(e);
      return null;
    }
  }

  /** The values of one policy's settings, each read once; a bad one is a problem and null. */
  private static final class Values {
    private final ConfigReader reader;
    private final String base;
    private final List<ConfigException> problems;
    private final Map<Setting<?>, Object> read = new LinkedHashMap<>();

    Values(ConfigReader reader, String base, List<ConfigException> problems) {
      this.reader = reader;
      this.base = base;
      this.problems = problems;
    }

    @SuppressWarnings("unchecked")
    <T> T get(Setting<T> setting) {
      if (read.containsKey(setting)) {
        return (T) read.get(setting);
      }
      T value = null;
      try {
        value = reader.get(base + setting.name(), setting);
      } catch (ConfigException e) {
        problems.add(e);
      }
      read.put(setting, value);
      return value;
    }
  }
}
