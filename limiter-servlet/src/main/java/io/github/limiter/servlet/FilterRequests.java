package io.github.limiter.servlet;

import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.log.RateLimitedLog;
import io.github.limiter.internal.log.StartLog;
import io.github.limiter.internal.runtime.HttpRoutes;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.microprofile.ServletRequestView;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What one filter does with each request, over the application's {@link LimiterRuntime}: match its
 * routes, then the moves of every adapter: view the request, admit it through the core, and render
 * a rejection, or send the headers and pass the admitted request's frame (maybe after a shaping
 * wait) and end it.
 */
final class FilterRequests {

  private final HttpRoutes routes;
  private final Counters counters;
  private final Shaper shaper;
  private final ClassLoader loader;
  private final String name;

  /** Found on the first hold, on a request thread, where CDI.current() surely answers. */
  private volatile RequestScope requestScope;

  private final String resumeAttribute;
  private final RateLimitedLog asyncLog;

  /**
   * Compiles the routed policies' rules over {@code runtime} (a resolver that a setting names may
   * fail here, naming the key); the runtime stays its owner's to close.
   */
  FilterRequests(
      LimiterRuntime runtime,
      ClassLoader loader,
      String name,
      Logger logger,
      Supplier<Shaper.Scheduler> scheduler) {
    LimiterConfig config = runtime.config();
    this.counters = new Counters(config.policies().keySet(), logger);
    this.routes =
        new HttpRoutes(runtime, counters, () -> ResolverDiscovery.beans(loader), loader, false);
    this.shaper = routes.shapes() ? new Shaper(scheduler.get()) : null;
    this.loader = loader;
    this.name = name;
    this.resumeAttribute = RateLimitFilter.class.getName() + ".resume." + name;
    this.asyncLog = new RateLimitedLog(logger, RateLimitFilter.class, Duration.ofSeconds(60));
    StartLog.started(
        logger, RateLimitFilter.describe(name), config, null, config.store(), runtime.recorder());
  }

  Counters counters() {
    return counters;
  }

  /** Stops the shaping waits' scheduler; the runtime is its owner's to close. */
  void close() {
    if (shaper != null) {
      shaper.shutdown();
    }
  }

  void handle(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    PolicySet set = match(request);
    if (set.size() == 0) {
      chain.doFilter(request, response);
      return;
    }
    RequestFrame frame = routes.admit(set, new ServletRequestView(request));
    if (!frame.allowed()) {
      if (!response.isCommitted()) {
        routes.reject(frame, new RejectionWriter(response));
      }
      return;
    }
    routes.headers(frame, response::addHeader);
    if (frame.waitNanos() > 0) {
      if (request.isAsyncSupported() && !request.isAsyncStarted()) {
        if (requestScope == null) {
          requestScope = RequestScope.find(loader);
        }
        request.setAttribute(resumeAttribute, frame);
        shaper.hold(request, response, frame.waitNanos());
        if (frame.settles()) {
          // A hold that fails or times out never passes: its frame must end all the same (a
          // concurrency permit must not stay taken). One that passes ends there first.
          request.getAsyncContext().addListener(new SettleAtEnd(frame, response, false));
        }
        return;
      }
      asyncLog.log(Level.WARNING, "doFilter", Shaper.whyUnheld(name, request));
    }
    pass(frame, request, response, chain);
  }

  /**
   * A request resumed after its shaping wait: it was decided already, so it only passes, in a
   * request context as an unheld request would be (Payara has none active on an async dispatch).
   */
  boolean resume(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request.getAttribute(resumeAttribute) instanceof RequestFrame frame)) {
      return false;
    }
    request.removeAttribute(resumeAttribute);
    requestScope.around(() -> pass(frame, request, response, chain));
    return true;
  }

  /**
   * Continues the chain inside the request's frame, then ends the frame: now, or, when the
   * application went async, once its async cycle ends.
   */
  private static void pass(
      RequestFrame frame,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain)
      throws IOException, ServletException {
    frame.enter();
    Throwable failure = null;
    try {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      frame.exit();
      if (frame.settles()) {
        if (failure != null || !request.isAsyncStarted()) {
          frame.end(failure != null ? 500 : response.getStatus(), failure);
        } else {
          request.getAsyncContext().addListener(new SettleAtEnd(frame, response, true));
        }
      }
    }
  }

  private PolicySet match(HttpServletRequest request) {
    String path = request.getServletPath();
    String info = request.getPathInfo();
    if (info != null) {
      path = path.isEmpty() ? info : path + info;
    }
    return routes.match(path, request.getMethod());
  }
}
