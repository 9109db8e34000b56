package io.github.limiter.jaxrs;

import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.log.RateLimitedLog;
import io.github.limiter.internal.render.ResponseRenderer;
import io.github.limiter.internal.runtime.HttpRoutes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Limits the requests of the {@code limiter.route.*} that match their path and method, as the
 * servlet filter does: a rejection aborts the request with the one renderer's response, and an
 * admitted request gets the {@code RateLimit} headers and is settled when its response is filtered.
 *
 * <p>Pre-matching, so that it decides every request to a routed path, whether or not a resource
 * matches it (a 404 or 405 is limited, as under the servlet filter), before any resource matching
 * or entity reading is spent on a request it refuses.
 */
@PreMatching
class RouteFilter implements ContainerRequestFilter, ContainerResponseFilter {

  private static final String FRAME = RouteFilter.class.getName() + ".frame";

  /**
   * The frame this thread entered and has not exited yet: a request whose response is filtered on
   * another thread (an asynchronous resource) exits it here, on the next request of this thread.
   */
  private static final ThreadLocal<RequestFrame> ENTERED = new ThreadLocal<>();

  private final HttpRoutes routes;

  /** Where each request is recorded for {@code @Limited} keys; null without CDI or limiter-cdi. */
  private final FilteredRequest recorder;

  private final String name;
  private final RateLimitedLog shapingLog;

  RouteFilter(HttpRoutes routes, FilteredRequest recorder, String name, Logger logger) {
    this.routes = routes;
    this.recorder = recorder;
    this.name = name;
    this.shapingLog = new RateLimitedLog(logger, RateLimitFeature.class, Duration.ofSeconds(60));
  }

  /**
   * The direct peer's address of {@code request}, which Jakarta REST does not offer: null here; the
   * servlet container's when there is one (see {@link ServletRouteFilter}), or Vert.x's under
   * Quarkus REST (see {@link VertxRouteFilter}).
   */
  String remoteAddress(ContainerRequestContext request) {
    return null;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    exitLeftOver();
    PolicySet set = routes.match(path(request), request.getMethod());
    if (set.size() == 0 && recorder == null) {
      return;
    }
    JaxrsRequestView view = new JaxrsRequestView(request, remoteAddress(request));
    boolean recorded = record(view);
    if (set.size() == 0) {
      return;
    }
    RequestFrame frame = routes.admit(set, view);
    if (!frame.allowed()) {
      request.abortWith(rejection(frame));
      return;
    }
    if (frame.waitNanos() > 0) {
      shapingLog.log(Level.WARNING, "filter", whyUnheld(name));
    }
    request.setProperty(FRAME, frame);
    if (recorded) {
      // @Limited reads them from the request on whichever thread runs the resource, which may not
      // be this one (a blocking resource on Quarkus REST).
      recorder.charged(frame.charged());
    }
    frame.enter(!recorded);
    ENTERED.set(frame);
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (!(request.getProperty(FRAME) instanceof RequestFrame frame)) {
      return;
    }
    request.removeProperty(FRAME);
    try {
      routes.headers(frame, response.getHeaders()::add);
    } finally {
      if (ENTERED.get() == frame) {
        ENTERED.remove();
        frame.exit();
      }
      if (frame.settles()) {
        frame.end(response.getStatus(), null);
      }
    }
  }

  /**
   * Records {@code view} as the request of the current request scope, for {@code @Limited}; false
   * if there is none to record it in.
   */
  private boolean record(JaxrsRequestView view) {
    if (recorder == null) {
      return false;
    }
    try {
      recorder.record(view);
      return true;
    } catch (RuntimeException noRequestScope) {
      // ContextNotActiveException: a Jakarta REST runtime that filters outside the request scope;
      // @Limited then sees no HTTP request, as without this filter.
      return false;
    }
  }

  /** Exits a frame this thread entered for a request whose response another thread filtered. */
  private static void exitLeftOver() {
    RequestFrame left = ENTERED.get();
    if (left != null) {
      ENTERED.remove();
      left.exit();
    }
  }

  /**
   * The path below the application's base URI, from {@code /}: what a route's pattern is matched
   * against. A path that cannot be decoded is matched as it came.
   */
  static String path(ContainerRequestContext request) {
    String path;
    try {
      path = request.getUriInfo().getPath();
    } catch (RuntimeException e) {
      path = request.getUriInfo().getPath(false);
    }
    return path.startsWith("/") ? path : "/" + path;
  }

  /** The rejection as a response, written by the one renderer. */
  private Response rejection(RequestFrame frame) {
    Response.ResponseBuilder response = Response.noContent();
    try {
      routes.reject(
          frame,
          new ResponseRenderer.RejectionSink() {
            @Override
            public void status(int status) {
              response.status(status);
            }

            @Override
            public void header(String header, String value) {
              response.header(header, value);
            }

            @Override
            public void body(String contentType, byte[] body) {
              response.type(contentType).entity(body);
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e); // building a response in memory does not fail
    }
    return response.build();
  }

  /** Why a request this filter admitted with a shaping wait passes at once. */
  static String whyUnheld(String name) {
    return "Jakarta REST filters of "
        + name
        + " cannot hold a request without holding its thread, so a request admitted with a"
        + " shaping (leaky-bucket) wait passes at once; use the servlet filter where a policy"
        + " shapes";
  }
}
