package io.github.limiter.spi;

import io.github.limiter.config.ConfigException;
import io.github.limiter.config.ConfigLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the store named by {@code limiter.store} among the {@link StoreFactory} services. */
public final class Stores {

  private Stores() {}

  /**
   * Creates the store named {@code name} from {@code config}, looking for factories with {@code
   * loader} (the application's class loader in a container).
   *
   * @throws ConfigException for {@code limiter.store} if no factory has that name
   */
  public static RateLimitStore create(String name, ConfigLookup config, ClassLoader loader) {
    List<String> known = new ArrayList<>();
    for (StoreFactory factory : ServiceLoader.load(StoreFactory.class, loader)) {
      if (factory.name().equals(name)) {
        return factory.create(config);
      }
      known.add(factory.name());
    }
    throw new ConfigException("limiter.store",
        "no store named '" + name + "' on the class path (found " + known + "); for redis add the"
            + " io.github.limiter:limiter-redis dependency");
  }
}
