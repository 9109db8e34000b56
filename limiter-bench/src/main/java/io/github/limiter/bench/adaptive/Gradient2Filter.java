package io.github.limiter.bench.adaptive;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/**
 * The peer: Netflix concurrency-limits' Gradient2 limit in front of the backend, as its servlet
 * filter applies it (acquire, then success or ignore), answering 503 when it refuses. Set up as
 * Limiter adaptive is: limit between 1 and 1000, starting at 20; Gradient2's own defaults otherwise
 * (tolerance 1.5, smoothing 0.2, queue size 4).
 */
final class Gradient2Filter implements Filter {

  private final Limiter<Void> limiter =
      SimpleLimiter.newBuilder()
          .limit(
              Gradient2Limit.newBuilder().initialLimit(20).minLimit(1).maxConcurrency(1000).build())
          .build();

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Optional<Limiter.Listener> listener = limiter.acquire(null);
    if (listener.isEmpty()) {
      HttpServletResponse http = (HttpServletResponse) response;
      http.setStatus(503);
      http.setHeader("Retry-After", "1");
      return;
    }
    try {
      chain.doFilter(request, response);
      listener.get().onSuccess();
    } catch (IOException | ServletException | RuntimeException e) {
      listener.get().onIgnore();
      throw e;
    }
  }
}
