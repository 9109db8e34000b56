package io.github.limiter.bench.adaptive;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Offers requests at a fixed rate, whatever the answers (open loop), and keeps each one's outcome.
 * A request's latency runs from when it was due to be sent, so that a client falling behind shows
 * as latency rather than as fewer requests. A share of the requests can be marked critical with the
 * {@code X-Criticality} header, the others sheddable.
 */
final class OpenLoop implements AutoCloseable {

  /** The longest a request is waited for: the answer is then a failure. */
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** What a run's requests got. */
  static final class Outcomes {
    final long[] due; // nanos from the run's start
    final long[] latency; // nanos; -1 for no answer
    final int[] status; // 0 for no answer
    final boolean[] critical;
    final CountDownLatch answered;

    Outcomes(int n) {
      due = new long[n];
      latency = new long[n];
      status = new int[n];
      critical = new boolean[n];
      answered = new CountDownLatch(n);
      Arrays.fill(latency, -1);
    }

    int size() {
      return due.length;
    }
  }

  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .executor(executor)
          .build();

  /**
   * Sends {@code perSecond} requests a second for {@code seconds} to {@code uri}, evenly spaced; a
   * share {@code criticalShare} of them critical (chosen with a fixed seed), and {@code
   * onSecond(second)} called as each second begins. Returns once every request is answered or timed
   * out.
   */
  Outcomes run(URI uri, int perSecond, double seconds, double criticalShare, IntConsumer onSecond)
      throws InterruptedException {
    int n = (int) Math.round(perSecond * seconds);
    Outcomes outcomes = new Outcomes(n);
    HttpRequest plain = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
    HttpRequest critical =
        HttpRequest.newBuilder(uri)
            .timeout(TIMEOUT)
            .header("X-Criticality", "critical")
            .GET()
            .build();
    HttpRequest sheddable =
        HttpRequest.newBuilder(uri)
            .timeout(TIMEOUT)
            .header("X-Criticality", "sheddable")
            .GET()
            .build();
    SplittableRandom random = new SplittableRandom(27);
    long gap = 1_000_000_000L / perSecond;
    long start = System.nanoTime();
    int second = -1;
    for (int i = 0; i < n; i++) {
      long due = i * gap;
      long wait = start + due - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      if (due / 1_000_000_000L > second) {
        second = (int) (due / 1_000_000_000L);
        onSecond.accept(second);
      }
      boolean isCritical = criticalShare > 0 && random.nextDouble() < criticalShare;
      outcomes.due[i] = due;
      outcomes.critical[i] = isCritical;
      HttpRequest request = criticalShare == 0 ? plain : isCritical ? critical : sheddable;
      int index = i;
      client
          .sendAsync(request, HttpResponse.BodyHandlers.discarding())
          .whenComplete(
              (response, failure) -> {
                outcomes.latency[index] = System.nanoTime() - start - due;
                outcomes.status[index] = response == null ? 0 : response.statusCode();
                outcomes.answered.countDown();
              });
    }
    if (!outcomes.answered.await(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
      throw new IllegalStateException("requests left unanswered after their timeout");
    }
    return outcomes;
  }

  /** A callback with the second of the run that begins. */
  @FunctionalInterface
  interface IntConsumer {
    void accept(int second);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
