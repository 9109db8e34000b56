package io.github.limiter.internal.store;

import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.internal.config.DeclaredStoreFactory;
import io.github.limiter.internal.config.Setting;
import io.github.limiter.internal.config.SettingValues;
import io.github.limiter.internal.names.ConfigNames;
import io.github.limiter.memory.InMemoryStore;
import java.util.List;

/** {@code limiter.store=memory}, the default. */
public final class InMemoryStoreFactory implements DeclaredStoreFactory {

  public static final String NAME = "memory";

  public static final Setting<Long> MAX_KEYS =
      Setting.of(
              "limiter.memory.max-keys",
              ConfigReader.integer(1, Integer.MAX_VALUE),
              (long) InMemoryStore.DEFAULT_MAX_KEYS)
          .doc("int ≥ 1", "`100000`", "1000000", "the most keys the in-memory store holds");

  public static final Setting<InMemoryStore.Overflow> OVERFLOW =
      Setting.of(
              "limiter.memory.overflow",
              InMemoryStoreFactory::overflow,
              InMemoryStore.Overflow.EVICT)
          .doc(
              "`evict`, `reject-new-keys`",
              "`evict`",
              "reject-new-keys",
              "what a new key gets when the store is full and nothing is reclaimable (see [the"
                  + " in-memory store](core-api.md#the-in-memory-store))");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Setting<?>> settings() {
    return List.of(MAX_KEYS, OVERFLOW);
  }

  @Override
  public RateLimitStore create(SettingValues settings) {
    return InMemoryStore.builder()
        .maxKeys(settings.get(MAX_KEYS).intValue())
        .overflow(settings.get(OVERFLOW))
        .build();
  }

  private static InMemoryStore.Overflow overflow(String value) {
    return ConfigNames.parse(
        InMemoryStore.Overflow.class, InMemoryStore.Overflow::configName, value);
  }
}
