package io.github.limiter.internal.store;

import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.spi.StoreFactory;
import java.util.Locale;
import java.util.Set;

/**
 * {@code limiter.store=memory}, the default. Keys: {@code limiter.memory.max-keys} (default {@value
 * InMemoryStore#DEFAULT_MAX_KEYS}) and {@code limiter.memory.overflow} ({@code evict} or {@code
 * reject-new-keys}, default {@code evict}).
 */
public final class InMemoryStoreFactory implements StoreFactory {

  public static final String NAME = "memory";

  @Override
  public String name() {
    return NAME;
  }

  public static final String MAX_KEYS = "limiter.memory.max-keys";
  public static final String OVERFLOW = "limiter.memory.overflow";

  @Override
  public Set<String> keys() {
    return Set.of(MAX_KEYS, OVERFLOW);
  }

  @Override
  public RateLimitStore create(ConfigLookup config) {
    ConfigReader reader = new ConfigReader(config);
    int maxKeys =
        (int) reader.integer(MAX_KEYS, InMemoryStore.DEFAULT_MAX_KEYS, 1, Integer.MAX_VALUE);
    InMemoryStore.Overflow overflow =
        reader.optional(OVERFLOW, InMemoryStoreFactory::overflow, InMemoryStore.Overflow.EVICT);
    return InMemoryStore.builder().maxKeys(maxKeys).overflow(overflow).build();
  }

  private static InMemoryStore.Overflow overflow(String value) {
    for (InMemoryStore.Overflow overflow : InMemoryStore.Overflow.values()) {
      if (overflow.configName().equals(value.toLowerCase(Locale.ROOT))) {
        return overflow;
      }
    }
    throw new IllegalArgumentException("expected evict or reject-new-keys, was '" + value + "'");
  }
}
