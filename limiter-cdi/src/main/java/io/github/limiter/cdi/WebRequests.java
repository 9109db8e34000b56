package io.github.limiter.cdi;

import io.github.limiter.RequestView;
import io.github.limiter.internal.http.RecordedRequest;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Collection;
import java.util.List;

/**
 * The HTTP request the current call serves, if there is one, and the policies an HTTP adapter
 * charged for it.
 */
@FunctionalInterface
interface WebRequests {

  /** Never a web request. */
  WebRequests NONE = () -> null;

  /** The HTTP request the current call serves; null outside one. */
  RequestView current();

  /**
   * The policies an HTTP adapter charged for the request the current call serves and recorded with
   * it (limiter-jaxrs's filter), which the call does not count again; empty if none.
   */
  default Collection<String> charged() {
    return List.of();
  }

  /**
   * The current {@code HttpServletRequest} when the container has one, else the request an HTTP
   * adapter recorded (limiter-jaxrs's filter on Quarkus REST, where no servlet request stands
   * behind a Jakarta REST request).
   */
  static WebRequests create(BeanManager beans, Instance<RecordedRequest> recorded) {
    WebRequests servlet = servlet(beans);
    WebRequests adapter = recorded(beans, recorded);
    if (servlet == NONE || adapter == NONE) {
      return servlet == NONE ? adapter : servlet;
    }
    return new WebRequests() {
      @Override
      public RequestView current() {
        RequestView web = servlet.current();
        return web != null ? web : adapter.current();
      }

      @Override
      public Collection<String> charged() {
        return adapter.charged();
      }
    };
  }

  /**
   * The servlet request through the container's built-in bean when the servlet API is present;
   * {@link #NONE} otherwise. The servlet-bound class is loaded only when the API is there, so this
   * never throws {@link NoClassDefFoundError}.
   */
  private static WebRequests servlet(BeanManager beans) {
    try {
      Class.forName(
          "jakarta.servlet.http.HttpServletRequest", false, WebRequests.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return NONE;
    }
    return ServletWebRequests.create(beans);
  }

  /** The request recorded in the one normal-scoped {@link RecordedRequest} bean, if any. */
  private static WebRequests recorded(BeanManager beans, Instance<RecordedRequest> recorded) {
    // A bean that is not normal-scoped would pin one request forever.
    if (!recorded.isResolvable()
        || !beans.isNormalScope(recorded.getHandle().getBean().getScope())) {
      return NONE;
    }
    RecordedRequest proxy = recorded.get();
    return new WebRequests() {
      @Override
      public RequestView current() {
        try {
          return proxy.get();
        } catch (RuntimeException notInARequest) {
          return null; // ContextNotActiveException: a timer, a message, a batch job
        }
      }

      @Override
      public Collection<String> charged() {
        try {
          return proxy.charged();
        } catch (RuntimeException notInARequest) {
          return List.of();
        }
      }
    };
  }
}
