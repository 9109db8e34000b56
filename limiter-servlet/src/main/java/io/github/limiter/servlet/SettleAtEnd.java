package io.github.limiter.servlet;

import io.github.limiter.internal.admission.RequestFrame;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Ends a request's frame when an async cycle ends, however it ends (completed, failed or timed
 * out): the application's own async cycle, or a shaping hold that never passed the filter.
 */
final class SettleAtEnd implements AsyncListener {
  private final RequestFrame frame;
  private final HttpServletResponse response;

  /**
   * Whether to follow a new async cycle started in this one; a shaping hold does not, since the
   * application's cycle after it is settled when the request passes.
   */
  private final boolean followsNewCycles;

  SettleAtEnd(RequestFrame frame, HttpServletResponse response, boolean followsNewCycles) {
    this.frame = frame;
    this.response = response;
    this.followsNewCycles = followsNewCycles;
  }

  @Override
  public void onComplete(AsyncEvent event) {
    frame.end(response.getStatus(), null);
  }

  @Override
  public void onError(AsyncEvent event) {
    frame.end(500, event.getThrowable());
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    frame.end(503, event.getThrowable());
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    if (followsNewCycles) {
      event.getAsyncContext().addListener(this);
    }
  }
}
