package io.github.limiter.servlet;

import io.github.limiter.internal.log.LogText;
import io.github.limiter.internal.runtime.LimiterRuntime;
import jakarta.servlet.ServletContext;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where the servlet side finds the application's one {@link LimiterRuntime}: in the {@code
 * ServletContext} under {@link LimiterRuntime#ATTRIBUTE}; else the bean that limiter-cdi produces
 * (then kept there too); else one that the first filter builds and keeps there. Every filter of the
 * context and the admin API share it, and the last filter to stop closes one that a filter built.
 */
final class ContextRuntime {

  private static final String HOLDER = ContextRuntime.class.getName();

  /**
   * The context's runtime; whether a filter built it; the {@code limiter.*} init-params it was
   * built from, or null for a filter's preset configuration; how many filters use it.
   */
  private static final class Holder {
    final LimiterRuntime runtime;
    final boolean built;
    final Map<String, String> params;
    int users;

    Holder(LimiterRuntime runtime, boolean built, Map<String, String> params) {
      this.runtime = runtime;
      this.built = built;
      this.params = params;
    }
  }

  private ContextRuntime() {}

  /**
   * The application's runtime, for the admin API: the context's, else the CDI bean; null while
   * there is neither.
   */
  static LimiterRuntime find(ServletContext context) {
    synchronized (context) {
      Holder holder = (Holder) context.getAttribute(HOLDER);
      if (holder != null) {
        return holder.runtime;
      }
      LimiterRuntime bean = bean(context);
      if (bean != null) {
        keep(context, new Holder(bean, false, Map.of()));
      }
      return bean;
    }
  }

  /**
   * The runtime that the filter {@code name} decides with. A filter configured by MicroProfile
   * Config alone ({@code params} empty) shares the application's runtime: the context's, or the CDI
   * bean, or else one it builds with {@code build}. One with {@code limiter.*} init-params, or a
   * preset configuration ({@code params} null), builds its own with {@code build}, unless the
   * context has the one it would build.
   *
   * @throws IllegalStateException naming the filter, when the context has a runtime of another
   *     configuration: one application has one set of policies
   */
  static LimiterRuntime acquire(
      ServletContext context,
      String name,
      Map<String, String> params,
      Supplier<LimiterRuntime> build) {
    synchronized (context) {
      Holder holder = (Holder) context.getAttribute(HOLDER);
      if (holder == null) {
        LimiterRuntime bean = params != null && params.isEmpty() ? bean(context) : null;
        holder =
            bean != null ? new Holder(bean, false, params) : new Holder(build.get(), true, params);
        keep(context, holder);
      } else if (params == null || !params.equals(holder.params)) {
        throw new IllegalStateException(
            "the application decides with a runtime of another configuration already"
                + (holder.params == null
                    ? " (a RateLimitFilter's preset one)"
                    : holder.params.isEmpty()
                        ? " (MicroProfile Config's)"
                        : " (init-params " + holder.params.keySet() + ")")
                + ", and one application has one set of policies: configure RateLimitFilter "
                + LogText.quote(name)
                + " as the others, or put its limiter.* settings in MicroProfile Config");
      }
      holder.users++;
      return holder.runtime;
    }
  }

  /** A filter stops using {@code runtime}: the last one closes it, if a filter built it. */
  static void release(ServletContext context, LimiterRuntime runtime) {
    synchronized (context) {
      Holder holder = (Holder) context.getAttribute(HOLDER);
      if (holder == null || holder.runtime != runtime || --holder.users > 0) {
        return;
      }
      context.removeAttribute(HOLDER);
      context.removeAttribute(LimiterRuntime.ATTRIBUTE);
      if (holder.built) {
        runtime.close();
      }
    }
  }

  private static void keep(ServletContext context, Holder holder) {
    context.setAttribute(HOLDER, holder);
    context.setAttribute(LimiterRuntime.ATTRIBUTE, holder.runtime);
  }

  /** limiter-cdi's runtime bean, when the application has CDI and that bean. */
  private static LimiterRuntime bean(ServletContext context) {
    ClassLoader loader = context.getClassLoader();
    if (loader == null) {
      loader = Thread.currentThread().getContextClassLoader();
    }
    return ResolverDiscovery.hasCdi(loader) ? CdiLookups.runtime() : null;
  }
}
