package io.github.limiter.bench.overhead;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * For {@code overhead.sh} (not a test): the CPU time of the handling thread per request, by path,
 * around the whole of Jetty's handling of it (routing, the filter, the servlet, writing the
 * response). With wrk sending the paths interleaved, every path sees the same machine at the same
 * moment, so the difference between two paths is what separates them, however loaded the machine.
 * {@code GET /meter} prints {@code <path> <requests> <cpu nanos>} lines; {@code GET /meter?reset}
 * starts again.
 */
final class CpuMeter extends Handler.Wrapper {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Map<String, LongAdder[]> byPath = new ConcurrentHashMap<>();

  CpuMeter(Handler handler) {
    super(handler);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = request.getHttpURI().getPath();
    if (path.equals("/meter")) {
      return report(request, response, callback);
    }
    long start = THREADS.getCurrentThreadCpuTime();
    try {
      return super.handle(request, response, callback);
    } finally {
      LongAdder[] counts =
          byPath.computeIfAbsent(path, p -> new LongAdder[] {new LongAdder(), new LongAdder()});
      counts[0].increment();
      counts[1].add(THREADS.getCurrentThreadCpuTime() - start);
    }
  }

  private boolean report(Request request, Response response, Callback callback) {
    StringBuilder text = new StringBuilder();
    if ("reset".equals(request.getHttpURI().getQuery())) {
      byPath.clear();
    } else {
      new TreeMap<>(byPath)
          .forEach(
              (path, counts) ->
                  text.append(path)
                      .append(' ')
                      .append(counts[0].sum())
                      .append(' ')
                      .append(counts[1].sum())
                      .append('\n'));
    }
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
    Content.Sink.write(response, true, text.toString(), callback);
    return true;
  }
}
