package io.github.limiter.cdi;

import io.github.limiter.RequestView;
import io.github.limiter.microprofile.ServletRequestView;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;

/**
 * The current request through the {@code HttpServletRequest} bean that Jakarta EE containers
 * provide. It is request-scoped, so one client proxy serves every call; outside an HTTP request the
 * proxy throws, and the call has no web request.
 */
final class ServletWebRequests implements WebRequests {

  private final HttpServletRequest request;

  private ServletWebRequests(HttpServletRequest request) {
    this.request = request;
  }

  static WebRequests create(BeanManager beans) {
    Set<Bean<?>> candidates = beans.getBeans(HttpServletRequest.class);
    if (candidates.isEmpty()) {
      return NONE;
    }
    Bean<?> bean;
    try {
      bean = beans.resolve(candidates);
    } catch (AmbiguousResolutionException e) {
      return NONE;
    }
    // A bean that is not normal-scoped would pin one request forever.
    if (bean == null || !beans.isNormalScope(bean.getScope())) {
      return NONE;
    }
    HttpServletRequest proxy =
        (HttpServletRequest)
            beans.getReference(bean, HttpServletRequest.class, beans.createCreationalContext(bean));
    return new ServletWebRequests(proxy);
  }

  @Override
  public RequestView current() {
    String remote;
    try {
      remote = request.getRemoteAddr();
    } catch (RuntimeException notInAWebRequest) {
      // ContextNotActiveException, or the container's "not in a servlet request"
      return null;
    }
    return remote == null ? null : new ServletRequestView(request);
  }
}
