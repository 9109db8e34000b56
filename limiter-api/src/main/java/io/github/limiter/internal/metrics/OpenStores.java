package io.github.limiter.internal.metrics;

import io.github.limiter.FailureMode;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The stores this application decides with, as the readiness check sees them. Whoever opens a store
 * for requests (the filter, the CDI runtime) calls {@link #open} once at start-up and closes the
 * returned handle with the store. The list lives in this class's loader: one per application when
 * Limiter is in the WAR.
 */
public final class OpenStores {

  /**
   * One open store.
   *
   * @param name the store's name, as {@code limiter.store} says
   * @param store the store
   * @param failClosed the policies that reject while the store cannot decide ({@code
   *     failure=fail-closed}): while it is down, the application is not ready for them
   */
  public record OpenStore(String name, RateLimitStore store, Set<String> failClosed) {
    public OpenStore {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(store, "store");
      failClosed =
          Collections.unmodifiableSortedSet(
              new TreeSet<>(failClosed)); // sorted, for a stable report
    }
  }

  /** An open store's place in the readiness check; closing it takes the store out. */
  public interface Handle extends AutoCloseable {
    @Override
    void close();
  }

  private static final List<OpenStore> OPEN = new CopyOnWriteArrayList<>();

  private OpenStores() {}

  /**
   * Shows {@code store} to the readiness check, and its gauges to {@code recorder}.
   *
   * @return removes the store from the readiness check; call it when closing the store
   */
  public static Handle open(
      String name, RateLimitStore store, LimiterConfig config, Recorder recorder) {
    OpenStore entry = new OpenStore(name, store, failClosed(config));
    OPEN.add(entry);
    recorder.watch(StoreGauges.of(name, store));
    return () -> OPEN.remove(entry);
  }

  /** The policies of {@code config} that reject while their store cannot decide. */
  public static Set<String> failClosed(LimiterConfig config) {
    Set<String> names = new TreeSet<>();
    for (PolicyConfig policy : config.policies().values()) {
      if (policy.policy().failureMode() == FailureMode.FAIL_CLOSED) {
        names.add(policy.name());
      }
    }
    return names;
  }

  /** The open stores, in the order they were opened. */
  public static List<OpenStore> all() {
    return List.copyOf(OPEN);
  }
}
