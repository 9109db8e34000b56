package io.github.limiter.cdi;

import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** The {@code @Named} {@link KeyResolver} beans. */
final class Resolvers {

  private final BeanManager beans;

  Resolvers(BeanManager beans) {
    this.beans = beans;
  }

  /** Why {@code name} cannot be used, or null if it can. */
  String problem(String name) {
    Set<Bean<?>> named = named(name);
    if (named.isEmpty()) {
      return "no KeyResolver bean named '" + name + "'; KeyResolver beans are named " + names()
          + " (add @Named(\"" + name + "\") to a bean that implements io.github.limiter.cdi.KeyResolver)";
    }
    try {
      beans.resolve(named);
      return null;
    } catch (AmbiguousResolutionException e) {
      return "several KeyResolver beans are named '" + name + "': "
          + named.stream().map(bean -> bean.getBeanClass().getName()).sorted().toList();
    }
  }

  /** A contextual reference to the resolver called {@code name}, which {@link #problem} accepted. */
  KeyResolver get(String name) {
    Bean<?> bean = beans.resolve(named(name));
    if (bean == null) {
      throw new IllegalStateException(problem(name));
    }
    return (KeyResolver) beans.getReference(bean, KeyResolver.class, beans.createCreationalContext(bean));
  }

  private Set<Bean<?>> named(String name) {
    return beans.getBeans(KeyResolver.class, Any.Literal.INSTANCE).stream()
        .filter(bean -> name.equals(bean.getName()))
        .collect(Collectors.toSet());
  }

  private Set<String> names() {
    Set<String> names = new TreeSet<>();
    for (Bean<?> bean : beans.getBeans(KeyResolver.class, Any.Literal.INSTANCE)) {
      if (bean.getName() != null) {
        names.add(bean.getName());
      }
    }
    return names;
  }
}
