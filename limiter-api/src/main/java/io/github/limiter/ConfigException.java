package io.github.limiter;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An invalid configuration value. The message names the key, the bad value and what was expected,
 * e.g. {@code limiter.policy.api.limits: expected <permits>/<period> ..., was '10 per sec'}. One
 * exception may report several problems at once ({@link #all}): its message lists them all, and
 * {@link #problems()} gives each.
 */
public final class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;
  private final List<ConfigException> problems;

  public ConfigException(String key, String message) {
    super(key + ": " + message);
    this.key = key;
    this.problems = List.of(this);
  }

  public ConfigException(String key, String message, Throwable cause) {
    super(key + ": " + message, cause);
    this.key = key;
    this.problems = List.of(this);
  }

  private ConfigException(List<ConfigException> problems) {
    super(
        problems.size()
            + " configuration problems: "
            + problems.stream().map(ConfigException::getMessage).collect(Collectors.joining("; ")));
    this.key = problems.get(0).key;
    this.problems = List.copyOf(problems);
  }

  /**
   * One exception for every problem of {@code problems} (each may report several itself), in order;
   * the one problem itself if there is only one.
   *
   * @throws IllegalArgumentException if there is none
   */
  public static ConfigException all(List<ConfigException> problems) {
    List<ConfigException> each = new ArrayList<>();
    problems.forEach(problem -> each.addAll(problem.problems));
    if (each.isEmpty()) {
      throw new IllegalArgumentException("no configuration problem to report");
    }
    return each.size() == 1 ? each.get(0) : new ConfigException(each);
  }

  /** The offending key: the first one's when there are several problems. */
  public String key() {
    return key;
  }

  /** Each problem this exception reports: just itself, unless it reports several. */
  public List<ConfigException> problems() {
    return problems;
  }
}
