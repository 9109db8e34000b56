package io.github.limiter.servlet;

import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.util.Set;

/**
 * Checks the configuration of every {@link RateLimitFilter} declared in {@code web.xml} or by
 * {@code @WebFilter} when the application starts, and fails the start if one is invalid. The
 * filter's own {@code init} checks the same, but some containers (Payara) only log a filter whose
 * init fails and serve the application without it; an initializer that throws fails the
 * deployment everywhere. It registers nothing and does nothing for applications without the
 * filter. Found through {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}.
 */
public final class RateLimitInitializer implements ServletContainerInitializer {

  @Override
  public void onStartup(Set<Class<?>> classes, ServletContext context) throws ServletException {
    ClassLoader loader = context.getClassLoader();
    for (FilterRegistration registration : context.getFilterRegistrations().values()) {
      if (isRateLimitFilter(registration.getClassName(), loader)) {
        RateLimitFilter.validate(registration.getName(), registration.getInitParameters(), loader);
      }
    }
  }

  private static boolean isRateLimitFilter(String className, ClassLoader loader) {
    if (className == null) {
      return false;
    }
    try {
      return RateLimitFilter.class.isAssignableFrom(Class.forName(className, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return false; // the container reports a filter class it cannot load
    }
  }
}
