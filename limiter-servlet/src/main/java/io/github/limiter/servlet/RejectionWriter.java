package io.github.limiter.servlet;

import io.github.limiter.internal.render.ResponseRenderer;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Where the core's renderer writes a rejection: a servlet response. */
final class RejectionWriter implements ResponseRenderer.RejectionSink {

  private final HttpServletResponse response;

  RejectionWriter(HttpServletResponse response) {
    this.response = response;
  }

  @Override
  public void status(int status) {
    response.setStatus(status);
  }

  @Override
  public void header(String name, String value) {
    response.setHeader(name, value);
  }

  @Override
  public void body(String contentType, byte[] body) throws IOException {
    response.setContentType(contentType);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
