package io.github.limiter.redis;

import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.Setting;
import io.github.limiter.internal.config.SettingValues;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The multi-region settings of the Redis store, {@code limiter.redis.region.*}
 * (docs/multi-region.md), declared once here and listed among {@link RedisStoreFactory}'s: this
 * region's name, the global Redis, the global policies and what a cut-off region does.
 */
final class RegionSettings {

  /** The prefix of the multi-region settings. */
  static final String PREFIX = RedisStoreFactory.PREFIX + "region";

  static final Setting<String> REGION =
      Setting.<String>of(PREFIX, Function.identity(), null)
          .doc(
              "name, `[A-Za-z0-9_.-]`",
              "— (no regions)",
              "eu-west",
              "This deployment's region; its Redis is the store's. With it, the policies of "
                  + "`limiter.redis.region.policies` are global: see [Multi-region](multi-region.md).");

  static final Setting<String> GLOBAL_URL =
      Setting.<String>of(PREFIX + ".global-url", Function.identity(), null)
          .doc(
              "URL",
              "`limiter.redis.url` (this region is the home region)",
              "redis://redis.global.internal:6379",
              "The Redis that holds the budget of every global policy.");

  static final Setting<String> POLICIES =
      Setting.<String>of(PREFIX + ".policies", Function.identity(), null)
          .doc(
              "comma list of policy names",
              "— (required with `limiter.redis.region`)",
              "global-api",
              "The global policies: `token-bucket` or `fixed-window`, leased by every node.");

  static final Setting<String> FAILURE =
      Setting.<String>of(PREFIX + ".failure", Function.identity(), null)
          .doc(
              "`refuse` or `allow <permits>/<duration>`",
              "`refuse`",
              "allow 100/m",
              "What a region does once its pool is spent and the global Redis cannot be "
                  + "reached; an allowance is added to the bound.");

  static final Setting<Duration> GLOBAL_TIMEOUT =
      Setting.<Duration>of(PREFIX + ".global-timeout", Limit::parseDuration, null)
          .doc(
              "duration",
              "`1s`",
              "500ms",
              "The budget of one call to the global Redis: a refill, never a decision.");

  private RegionSettings() {}

  /**
   * The global policies of this region (docs/multi-region.md): each named policy must exist and be
   * a token bucket or a fixed window; logs each one's guarantee and bound.
   */
  static void apply(SettingValues settings, RedisStoreBuilder b) {
    Optional<String> region = settings.text(REGION);
    Optional<String> names = settings.text(POLICIES);
    if (region.isEmpty()) {
      for (Setting<?> other : List.of(POLICIES, GLOBAL_URL, FAILURE, GLOBAL_TIMEOUT)) {
        if (settings.text(other).isPresent()) {
          throw new ConfigException(
              other.name(),
              "needs "
                  + REGION
                  + " (this deployment's region), was '"
                  + settings.text(other).get()
                  + "' without it");
        }
      }
      return;
    }
    if (names.isEmpty() || names.get().isBlank()) {
      throw new ConfigException(
          POLICIES.name(),
          "expected the global policies' names with "
              + REGION
              + "='"
              + region.get()
              + "', was unset");
    }
    Map<String, PolicyConfig> policies = settings.core().policies();
    Set<String> global = new LinkedHashSet<>();
    for (String name : names.get().split(",")) {
      String n = name.strip();
      PolicyConfig policy = policies.get(n);
      if (policy == null) {
        throw new ConfigException(
            POLICIES.name(),
            "no policy named '" + n + "' (limiter.policy." + n + ".*), was '" + names.get() + "'");
      }
      if (!RegionPools.allowed(policy.policy().algorithm())) {
        throw new ConfigException(
            POLICIES.name(),
            "policy '"
                + n
                + "' is "
                + policy.policy().algorithm().configName()
                + " (limiter.policy."
                + n
                + ".algorithm); a global policy must be token-bucket or fixed-window, was '"
                + names.get()
                + "'");
      }
      if (!policy.plans().byName().isEmpty()) {
        throw new ConfigException(
            POLICIES.name(),
            "policy '"
                + n
                + "' has plans (limiter.policy."
                + n
                + ".plans); a global policy has one budget, without plans, was '"
                + names.get()
                + "'");
      }
      global.add(n);
    }
    RedisStoreFactory.set(settings, FAILURE, b::regionFailure);
    RedisStoreFactory.set(settings, GLOBAL_TIMEOUT, b::globalTimeout);
    try {
      b.region(region.get(), settings.text(GLOBAL_URL).orElse(null), global);
    } catch (IllegalArgumentException e) {
      boolean url = e.getMessage().contains("URL") || e.getMessage().contains("redis");
      Setting<String> key = url && !e.getMessage().startsWith("region") ? GLOBAL_URL : REGION;
      throw new ConfigException(key.name(), e.getMessage(), e);
    }
    RegionPools.Failure failure =
        settings.text(FAILURE).map(RegionPools.Failure::parse).orElse(RegionPools.Failure.REFUSE);
    for (String n : global) {
      PolicyConfig policy = policies.get(n);
      long maxSlice =
          (policy.lease().enabled() ? policy.lease() : PolicyConfig.LeaseMode.OFF).maxSlice();
      CircuitBreaker.LOG.info(RegionPools.bound(region.get(), policy.policy(), maxSlice, failure));
    }
  }
}
