package io.github.limiter.cdi;

import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.interceptor.InvocationContext;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Enumeration;
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
  public CallView view(InvocationContext call) {
    String remote;
    try {
      remote = request.getRemoteAddr();
    } catch (RuntimeException notInAWebRequest) {
      // ContextNotActiveException, or the container's "not in a servlet request"
      return new CallView(call);
    }
    return remote == null ? new CallView(call) : new InRequest(call, request, remote);
  }

  /** A call made while serving an HTTP request. */
  private static final class InRequest extends CallView {
    private final HttpServletRequest request;
    private final String remote;

    InRequest(InvocationContext call, HttpServletRequest request, String remote) {
      super(call);
      this.request = request;
      this.remote = remote;
    }

    @Override
    public String remoteAddress() {
      return remote;
    }

    @Override
    public String header(String name) {
      return request.getHeader(name);
    }

    @Override
    public Enumeration<String> headers(String name) {
      return request.getHeaders(name);
    }

    @Override
    public String principal() {
      Principal principal = request.getUserPrincipal();
      return principal == null ? null : principal.getName();
    }

    @Override
    public boolean isUserInRole(String role) {
      return request.isUserInRole(role);
    }

    @Override
    public <T> T unwrap(Class<T> type) {
      return type.isInstance(request) ? type.cast(request) : super.unwrap(type);
    }
  }
}
