package io.github.limiter.internal.metrics;

import io.github.limiter.RateLimitStore;
import io.github.limiter.StoreHealth;
import io.github.limiter.memory.InMemoryStore;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What a store shows on gauges, read when a backend scrapes, never on the hot path.
 *
 * @param store the store's name, the {@code store} tag ({@code memory}, {@code redis})
 * @param source the store, for {@link RateLimitStore#health()}
 * @param keys the number of keys a store holds in memory ({@code limiter.memory.keys}), if it does
 * @param evictions how many keys it has evicted since start ({@code limiter.memory.evictions}), if
 *     it keeps keys in memory
 * @param regions its global policies' budgets in its region ({@code limiter.region.*}), if it runs
 *     in one
 */
public record StoreGauges(
    String store,
    RateLimitStore source,
    Optional<LongSupplier> keys,
    Optional<LongSupplier> evictions,
    Optional<RegionBudgets> regions) {

  /** {@code limiter.store.circuit.state} values: a breaker that lets calls through is 0. */
  public static final int CLOSED = 0;

  public static final int HALF_OPEN = 1;
  public static final int OPEN = 2;

  public StoreGauges {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(evictions, "evictions");
    Objects.requireNonNull(regions, "regions");
  }

  /**
   * The gauges of {@code source}; an {@link InMemoryStore} also shows its key count and evictions,
   * a store in a region its global policies' budgets.
   */
  public static StoreGauges of(String store, RateLimitStore source) {
    // A view, not a type test: the source may be a CDI client proxy of the in-memory store.
    Optional<InMemoryStore> memory = source.view(InMemoryStore.class);
    return new StoreGauges(
        store,
        source,
        memory.map(m -> (LongSupplier) m::size),
        memory.map(m -> (LongSupplier) m::evictions),
        source.view(RegionBudgets.class));
  }

  /** The breaker's state now: {@link #CLOSED}, {@link #HALF_OPEN} or {@link #OPEN}. */
  public int circuitState() {
    return circuitState(source.health());
  }

  /** The gauge value of {@code health}'s breaker; a store without a breaker is closed. */
  public static int circuitState(StoreHealth health) {
    return switch (health.breaker()) {
      case "open" -> OPEN;
      case "half-open" -> HALF_OPEN;
      default -> CLOSED;
    };
  }
}
