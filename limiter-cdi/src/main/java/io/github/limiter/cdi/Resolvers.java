package io.github.limiter.cdi;

import io.github.limiter.KeyResolver;
import io.github.limiter.internal.admission.KeyResolvers;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link KeyResolver}s of the application: its beans, then its ServiceLoader services; looked
 * up once, on first use.
 */
final class Resolvers {

  private final BeanManager beans;
  private final ClassLoader loader;
  private KeyResolvers found;

  Resolvers(BeanManager beans, ClassLoader loader) {
    this.beans = beans;
    this.loader = loader;
  }

  /**
   * Resolvers that cannot be looked up yet, as in a Build Compatible Extension's validation: a
   * resolver's name is what its instance says, so every name passes here and the application's
   * start checks it.
   */
  static Resolvers unknownUntilStart(ClassLoader loader) {
    return new Resolvers(null, loader);
  }

  /** Why {@code name} cannot be used, or null if it can (always null before the start). */
  String problem(String name) {
    return beans == null ? null : found().problem(name);
  }

  /** The resolver called {@code name}, which {@link #problem} accepted. */
  KeyResolver get(String name) {
    return found().get("resolver:" + name, name);
  }

  private synchronized KeyResolvers found() {
    if (found == null) {
      List<KeyResolver> references = new ArrayList<>();
      for (Bean<?> bean : beans.getBeans(KeyResolver.class, Any.Literal.INSTANCE)) {
        references.add(
            (KeyResolver)
                beans.getReference(bean, KeyResolver.class, beans.createCreationalContext(bean)));
      }
      found = KeyResolvers.find(references, loader);
    }
    return found;
  }
}
