package io.github.limiter.internal.config;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * "Did you mean {@code key}?" for a misspelt key or value: the valid word closest to it by edit
 * distance, when it is close enough to be the one meant.
 */
public final class Suggestion {

  private Suggestion() {}

  /**
   * The word of {@code valid} closest to {@code word}, ignoring case: at most one edit away for a
   * short word, a third of its length for a longer one (a swap of two neighbours is one edit); the
   * first in alphabetical order among equally close ones. A word that differs in case only is a
   * distance of none.
   */
  public static Optional<String> closest(String word, Collection<String> valid) {
    String typed = word.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : new TreeSet<>(valid)) {
      int distance = distance(typed, candidate.toLowerCase(Locale.ROOT));
      int allowed = Math.max(1, Math.min(typed.length(), candidate.length()) / 3);
      if (!candidate.equals(word) && distance <= allowed && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** {@code "; did you mean 'key'?"} for the closest of {@code valid}, or empty text. */
  public static String hint(String word, Collection<String> valid) {
    return hint("", word, valid);
  }

  /**
   * The {@link #hint} for a whole key such as {@code limiter.stor} among whole keys: compared after
   * their common {@code prefix}, which would make any two keys look alike.
   */
  public static String hint(String prefix, String key, Collection<String> valid) {
    if (!key.startsWith(prefix)) {
      return ""; // an environment variable's form, compared with nothing
    }
    List<String> rests =
        valid.stream()
            .filter(k -> k.startsWith(prefix))
            .map(k -> k.substring(prefix.length()))
            .toList();
    return closest(key.substring(prefix.length()), rests)
        .map(rest -> "; did you mean '" + prefix + rest + "'?")
        .orElse("");
  }

  /**
   * {@code parser} of one of {@code names}, whose failure on a misspelt name adds the {@link
   * #hint}: {@code token-bukket} gets "did you mean 'token-bucket'?".
   */
  static <T> Function<String, T> oneOf(Function<String, T> parser, Collection<String> names) {
    return text -> {
      try {
        return parser.apply(text);
      } catch (IllegalArgumentException e) {
        String hint = hint(text.trim(), names);
        throw hint.isEmpty() ? e : new IllegalArgumentException(e.getMessage() + hint, e);
      }
    };
  }

  /**
   * The edit distance of {@code a} and {@code b}: insertions, deletions, substitutions and swaps of
   * neighbours (the optimal string alignment distance).
   */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
