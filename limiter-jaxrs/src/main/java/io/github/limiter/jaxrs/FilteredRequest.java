package io.github.limiter.jaxrs;

import io.github.limiter.RequestView;
import io.github.limiter.internal.http.RecordedRequest;
import jakarta.enterprise.context.RequestScoped;
import java.util.Collection;
import java.util.List;

/**
 * The Jakarta REST request of the current request scope, as {@link RouteFilter} recorded it: what
 * {@code @Limited} reads its {@code header:}, {@code principal} and {@code remote-address} keys
 * from where no servlet request stands behind the Jakarta REST one (Quarkus REST), and the policies
 * its route charged, which {@code @Limited} does not count again. Request-scoped, not a thread
 * local: Quarkus REST runs the filter on the event loop and a blocking resource on a worker thread,
 * and carries the request scope across.
 */
@RequestScoped
class FilteredRequest implements RecordedRequest {

  /** Written by the filter's thread, read by the resource's. */
  private volatile RequestView view;

  private volatile Collection<String> charged = List.of();

  public void record(RequestView view) {
    this.view = view;
  }

  /** Records what the request's route charged: a frame's list, kept as it is. */
  public void charged(Collection<String> policies) {
    this.charged = policies;
  }

  @Override
  public RequestView get() {
    return view;
  }

  @Override
  public Collection<String> charged() {
    return charged;
  }
}
