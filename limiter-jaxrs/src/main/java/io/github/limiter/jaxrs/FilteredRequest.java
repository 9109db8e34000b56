package io.github.limiter.jaxrs;

import io.github.limiter.RequestView;
import io.github.limiter.internal.http.RecordedRequest;
import jakarta.enterprise.context.RequestScoped;

/**
 * The Jakarta REST request of the current request scope, as {@link RouteFilter} recorded it: what
 * {@code @Limited} reads its {@code header:}, {@code principal} and {@code remote-address} keys
 * from where no servlet request stands behind the Jakarta REST one (Quarkus REST). Request-scoped,
 * not a thread local: Quarkus REST runs the filter on the event loop and a blocking resource on a
 * worker thread, and carries the request scope across.
 */
@RequestScoped
class FilteredRequest implements RecordedRequest {

  /** Written by the filter's thread, read by the resource's. */
  private volatile RequestView view;

  public void record(RequestView view) {
    this.view = view;
  }

  @Override
  public RequestView get() {
    return view;
  }
}
