package io.github.limiter.internal.config;

import io.github.limiter.Algorithm;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One configuration key, declared once: its name, how its text is parsed, its default, the
 * algorithms it applies to (a policy's), and the line of the reference documentation that describes
 * it. The core reads every key through its declaration, and a {@link DeclaredStoreFactory} declares
 * its own the same way, so that the core checks their names, parses their values and reports every
 * problem with the key and the value before the store is created.
 *
 * <pre>{@code
 * static final Setting<Duration> TIMEOUT =
 *     Setting.of("limiter.mystore.timeout", Limit::parseDuration, Duration.ofMillis(250))
 *         .doc("duration", "`250ms`", "100ms", "how long a decision may take");
 * }</pre>
 *
 * @param <T> the type of the parsed value
 */
public final class Setting<T> {

  private final String name;
  private final Function<String, ? extends T> parser;
  private final T fallback;
  private final boolean required;
  private final boolean verbatim;
  private final Set<Algorithm> algorithms;
  private final Doc doc;

  /** The documentation line: the cells of the reference table, in Markdown. */
  private record Doc(String type, String fallback, String example, String meaning) {}

  private Setting(
      String name,
      Function<String, ? extends T> parser,
      T fallback,
      boolean required,
      boolean verbatim,
      Set<Algorithm> algorithms,
      Doc doc) {
    this.name = Objects.requireNonNull(name, "name");
    this.parser = Objects.requireNonNull(parser, "parser");
    this.fallback = fallback;
    this.required = required;
    this.verbatim = verbatim;
    // in the enum's order, for messages and docs
    this.algorithms =
        algorithms.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(algorithms));
    this.doc = doc;
  }

  /**
   * A setting named {@code name}, whose text {@code parser} turns into a value (throwing an {@link
   * IllegalArgumentException} that shows the text and what was expected), and whose value is {@code
   * fallback} when it is not set (null: none).
   */
  public static <T> Setting<T> of(String name, Function<String, ? extends T> parser, T fallback) {
    return new Setting<>(name, parser, fallback, false, false, Set.of(), new Doc("", "", "", ""));
  }

  /** The same setting, with its line of the reference table (each cell in Markdown). */
  public Setting<T> doc(String type, String fallback, String example, String meaning) {
    return new Setting<>(
        name,
        parser,
        this.fallback,
        required,
        verbatim,
        algorithms,
        new Doc(type, fallback, example, meaning));
  }

  /** The same setting, which must be set. */
  public Setting<T> required() {
    return new Setting<>(name, parser, fallback, true, verbatim, algorithms, doc);
  }

  /**
   * The same setting, whose text is taken as written, spaces and empty text included: for a
   * password or a prefix. Any other setting is trimmed, and empty text is not set.
   */
  public Setting<T> verbatim() {
    return new Setting<>(name, parser, fallback, required, true, algorithms, doc);
  }

  /** The same policy setting, which applies to these algorithms only: set for another, it fails. */
  public Setting<T> only(Algorithm first, Algorithm... more) {
    return new Setting<>(name, parser, fallback, required, verbatim, EnumSet.of(first, more), doc);
  }

  /**
   * The key: whole for a store's ({@code limiter.redis.url}), and after {@code
   * limiter.policy.NAME.} for a policy's.
   */
  public String name() {
    return name;
  }

  /**
   * The value of {@code text}.
   *
   * @throws IllegalArgumentException showing the text and what was expected
   */
  public T parse(String text) {
    return parser.apply(text);
  }

  /** The value when the key is not set; null if there is none. */
  public T fallback() {
    return fallback;
  }

  public boolean isRequired() {
    return required;
  }

  public boolean isVerbatim() {
    return verbatim;
  }

  /** The algorithms a policy setting applies to; empty for every algorithm. */
  public Set<Algorithm> algorithms() {
    return algorithms;
  }

  /** Whether a policy setting applies to {@code algorithm}; to an unknown one (null) if to all. */
  public boolean appliesTo(Algorithm algorithm) {
    return algorithms.isEmpty() || algorithm != null && algorithms.contains(algorithm);
  }

  /** The type column of the reference table: what the value may be. */
  public String type() {
    return doc.type;
  }

  /** The default column of the reference table. */
  public String defaultText() {
    return doc.fallback;
  }

  /** The example column of the reference table: a value, without Markdown. */
  public String example() {
    return doc.example;
  }

  /** The meaning column of the reference table. */
  public String meaning() {
    return doc.meaning;
  }

  /** The names of {@code settings}. */
  public static Set<String> names(List<Setting<?>> settings) {
    return settings.stream().map(Setting::name).collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public String toString() {
    return name;
  }
}
