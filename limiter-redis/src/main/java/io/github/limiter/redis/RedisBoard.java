package io.github.limiter.redis;

import io.github.limiter.internal.live.LiveBoard;
import io.github.limiter.internal.live.LiveBoard.Published;
import io.github.limiter.internal.live.LiveBoard.SharedOverride;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The live board of a {@link RedisStore} ({@link io.github.limiter.internal.live.LiveBoard}): the
 * policies' versions in the hash {@code <prefix>{live}:versions} and the keys' overrides in {@code
 * <prefix>{live}:overrides}, each change one script call on the server's clock.
 */
final class RedisBoard implements LiveBoard {

  private final GuardedCalls calls;
  private final String prefix;

  /** The scripts' ARGV[1]: '' for server time, else caller time in microseconds. */
  private final Supplier<String> now;

  RedisBoard(GuardedCalls calls, String prefix, Supplier<String> now) {
    this.calls = calls;
    this.prefix = prefix;
    this.now = now;
  }

  /** The version of {@code policy} this node published or read last, or null. */
  Published published(String policy) {
    return published.get(policy);
  }

  /** The versions this node published or read last, by policy. */
  private final ConcurrentHashMap<String, Published> published = new ConcurrentHashMap<>();

  /** The hash of the live versions, {@code <prefix>{live}:versions}. */
  private List<String> versionsKey() {
    return List.of(prefix + "{live}:versions");
  }

  @Override
  public Published publish(String policy, long number, String limits) {
    List<String> key = versionsKey();
    try {
      Object reply =
          calls.eval(
              calls.breaker(key),
              Scripts.publish(),
              key,
              List.of(now.get(), Long.toString(number), "0", policy, limits));
      Published held = parsePublished(reply);
      published.put(policy, held);
      return held;
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot publish version " + number + " of policy '" + policy + "' to Redis: " + e, e);
    }
  }

  @Override
  public Map<String, Published> read() {
    List<String> key = versionsKey();
    Object reply;
    try {
      reply = calls.eval(calls.breaker(key), Scripts.versions(), key, List.of());
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the live versions from Redis: " + e, e);
    }
    Map<String, Published> versions = new TreeMap<>();
    if (reply instanceof List<?> flat) {
      for (int i = 0; i + 1 < flat.size(); i += 2) {
        Published p = parsePublished(flat.get(i + 1));
        if (p != null) {
          versions.put(String.valueOf(flat.get(i)), p);
        }
      }
    }
    published.putAll(versions);
    return versions;
  }

  /** The hash of the keys' overrides, {@code <prefix>{live}:overrides}. */
  private List<String> overridesKey() {
    return List.of(prefix + "{live}:overrides");
  }

  @Override
  public void putOverride(String policy, String key, String kind, String limits, long ttlMicros) {
    override(policy, key, limits.isEmpty() ? kind : kind + " " + limits, ttlMicros);
  }

  @Override
  public boolean removeOverride(String policy, String key) {
    return override(policy, key, "", 0);
  }

  private boolean override(String policy, String key, String value, long ttlMicros) {
    List<String> hash = overridesKey();
    try {
      Object reply =
          calls.eval(
              calls.breaker(hash),
              Scripts.override(),
              hash,
              List.of(now.get(), Long.toString(ttlMicros), "0", policy + " " + key, value));
      return Long.valueOf(1).equals(reply);
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot change the override of key '"
              + key
              + "' of policy '"
              + policy
              + "' in Redis: "
              + e,
          e);
    }
  }

  @Override
  public Map<String, Map<String, SharedOverride>> readOverrides() {
    List<String> hash = overridesKey();
    Object reply;
    try {
      reply =
          calls.eval(calls.breaker(hash), Scripts.overrides(), hash, List.of(now.get(), "0", "0"));
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the overrides from Redis: " + e, e);
    }
    Map<String, Map<String, SharedOverride>> overrides = new TreeMap<>();
    if (reply instanceof List<?> flat) {
      for (int i = 1; i + 1 < flat.size(); i += 2) {
        String[] field = text(flat.get(i)).split(" ", 2);
        String[] value = text(flat.get(i + 1)).split(" ", 3);
        if (field.length == 2 && value.length >= 2) {
          try {
            overrides
                .computeIfAbsent(field[0], p -> new TreeMap<>())
                .put(
                    field[1],
                    new SharedOverride(
                        value[0], value.length == 3 ? value[2] : "", Long.parseLong(value[1])));
          } catch (NumberFormatException e) {
            // written by no version of this store: skipped
          }
        }
      }
    }
    return overrides;
  }

  private static String text(Object value) {
    return value instanceof byte[] bytes
        ? new String(bytes, StandardCharsets.UTF_8)
        : String.valueOf(value);
  }

  /** "version start limits" as publish.lua writes it; null if unreadable. */
  private static Published parsePublished(Object value) {
    String[] parts = text(value).split(" ", 3);
    try {
      return new Published(Long.parseLong(parts[0]), parts[2], Long.parseLong(parts[1]));
    } catch (RuntimeException e) {
      return null;
    }
  }
}
