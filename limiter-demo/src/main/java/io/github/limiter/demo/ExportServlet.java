package io.github.limiter.demo;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/export?seconds=N}: a stand-in for a long export, limited by the servlet filter
 * (policy {@code export}) to 2 in flight per API key. It answers after N seconds (0 to 30, 0 when
 * absent), asynchronously, so that a waiting export holds no server thread; the filter gives its
 * permit back when the async cycle completes.
 */
@WebServlet(urlPatterns = "/api/export", asyncSupported = true)
public class ExportServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private static final int MAX_SECONDS = 30;

  private transient ScheduledExecutorService timer;

  @Override
  public void init() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "demo-export");
              thread.setDaemon(true);
              return thread;
            });
  }

  @Override
  public void destroy() {
    timer.shutdownNow();
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    int seconds;
    try {
      String text = request.getParameter("seconds");
      seconds = text == null ? 0 : InvalidParameter.integer("seconds", text, 0, MAX_SECONDS);
    } catch (InvalidParameter invalid) {
      invalid.send(response);
      return;
    }
    AsyncContext async = request.startAsync();
    async.setTimeout(TimeUnit.SECONDS.toMillis(seconds + 10L));
    timer.schedule(
        () -> {
          try {
            response.setContentType("text/plain");
            response.setCharacterEncoding("UTF-8");
            response.getWriter().println("exported in " + seconds + " s");
          } catch (IOException e) {
            // the client went away: nothing to answer
          } finally {
            async.complete();
          }
        },
        seconds,
        TimeUnit.SECONDS);
  }
}
