package io.github.limiter.cdi;

import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.interceptor.InvocationContext;

/** Views a call together with the HTTP request the current thread serves, if there is one. */
@FunctionalInterface
interface WebRequests {

  /** Never a web request: for applications without the servlet API. */
  WebRequests NONE = CallView::new;

  CallView view(InvocationContext call);

  /**
   * The current {@code HttpServletRequest} through the container's built-in bean when the servlet
   * API is present; {@link #NONE} otherwise. The servlet-bound class is loaded only when the API is
   * there, so this never throws {@link NoClassDefFoundError}.
   */
  static WebRequests create(BeanManager beans) {
    try {
      Class.forName(
          "jakarta.servlet.http.HttpServletRequest", false, WebRequests.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return NONE;
    }
    return ServletWebRequests.create(beans);
  }
}
