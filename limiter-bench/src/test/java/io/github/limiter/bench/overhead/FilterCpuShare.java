package io.github.limiter.bench.overhead;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording of {@link OverheadServer} under load (see {@code overhead.sh}) and prints
 * the share of the container's worker CPU samples spent inside RateLimitFilter but not in the
 * servlet behind it. Unlike throughput, this share does not depend on how busy the machine is.
 */
public final class FilterCpuShare {

  private FilterCpuShare() {}

  public static void main(String[] args) throws IOException {
    int workers = 0;
    int inFilter = 0;
    Map<String, Integer> byFrame = new HashMap<>();
    Map<String, Integer> byLeaf = new HashMap<>();
    for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
      if (!event.getEventType().getName().equals("jdk.ExecutionSample")
          || event.getStackTrace() == null) {
        continue;
      }
      String thread = event.getThread("sampledThread").getJavaName();
      if (thread == null || !thread.startsWith("qtp")) {
        continue;
      }
      workers++;
      List<RecordedFrame> frames = event.getStackTrace().getFrames(); // leaf first
      int filter = -1;
      for (int i = frames.size() - 1; i >= 0; i--) {
        if (name(frames.get(i)).endsWith("RateLimitFilter.doFilter")) {
          filter = i;
          break;
        }
      }
      if (filter < 0
          || frames.subList(0, filter).stream()
              .map(FilterCpuShare::name)
              .anyMatch(n -> n.contains("ServletHolder") || n.contains("OverheadServer$Trivial"))) {
        continue;
      }
      inFilter++;
      String own =
          frames.subList(0, filter + 1).stream()
              .map(FilterCpuShare::name)
              .filter(n -> n.startsWith("io.github.limiter"))
              .findFirst()
              .orElse("?");
      byFrame.merge(own, 1, Integer::sum);
      byLeaf.merge(name(frames.get(0)), 1, Integer::sum);
    }
    System.out.printf(
        "%s: %d worker samples, %d inside the filter = %.1f%%%n",
        args.length > 1 ? args[1] : args[0],
        workers,
        inFilter,
        100.0 * inFilter / Math.max(1, workers));
    System.out.println("  by the innermost Limiter frame:");
    top(byFrame, 8);
    System.out.println("  by the leaf frame (what the time was spent on):");
    top(byLeaf, 12);
  }

  private static void top(Map<String, Integer> counts, int n) {
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(n)
        .forEach(e -> System.out.printf("    %4d %s%n", e.getValue(), e.getKey()));
  }

  private static String name(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }
}
