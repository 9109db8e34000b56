package io.github.limiter.internal.algorithm;

/**
 * A concurrency limit found from latency rather than configured, in the spirit of TCP Vegas, of
 * Netflix's Gradient limits and of Envoy's adaptive concurrency filter.
 *
 * <ul>
 *   <li>Requests are averaged in windows (20 requests, or a second).
 *   <li>The baseline is the latency without queueing. It is measured in a probe: for one window the
 *       limit is held at {@value #PROBE_IN_FLIGHT} (within floor and ceiling), so that the
 *       backend's queue drains, and the average of the requests admitted during the probe is the
 *       baseline. Only a probe sets it: a window's average, over 20 requests, varies too much to
 *       lower it (the lowest of many would soon be the baseline).
 *   <li>While a window's average stays within {@code tolerance} times the baseline, the limit grows
 *       by about its square root; beyond it, the limit shrinks in proportion ({@code limit ·
 *       tolerance · baseline / average}, by half at most). Each window moves the limit a fifth of
 *       the way to that target, between a floor and a ceiling.
 *   <li>A limit that the traffic does not reach (fewer than half of it in flight) does not grow: a
 *       quiet hour must not leave a limit that no overload has tested.
 *   <li>A probe runs only when the baseline is in doubt:
 *       <ul>
 *         <li>at the start;
 *         <li>when shrinking does not help: the limit halved, or reached the floor, in one run of
 *             windows beyond the tolerance. Queueing falls with what is in flight; latency that
 *             does not is the backend's own, so it is slower;
 *         <li>when two windows in a row, with the traffic filling half the limit or more, are below
 *             {@value #MUCH_FASTER} times the baseline: the backend became faster;
 *         <li>when no window has confirmed the baseline (been as fast) for {@value
 *             #BASELINE_MAX_AGE_SECONDS} s: under steady overload no window can.
 *       </ul>
 * </ul>
 *
 * <p>A pure controller: no clock of its own, no threads, no locks. Its owner feeds it each
 * request's latency with the time it ended, under one lock.
 */
public final class AdaptiveLimit {

  /** A window closes after this many requests... */
  static final int WINDOW_SAMPLES = 20;

  /** ...or after this long with at least one, so a slow trickle still moves the limit. */
  static final long WINDOW_NANOS = 1_000_000_000L;

  /** The share of the way to its target the limit moves each window. */
  private static final double SMOOTHING = 0.2;

  /** The limit while the baseline is measured: low enough for most backends not to queue. */
  static final int PROBE_IN_FLIGHT = 3;

  /** How long a baseline that no window confirmed is trusted before a probe measures it again. */
  static final long BASELINE_MAX_AGE_SECONDS = 300;

  private static final long BASELINE_MAX_AGE_NANOS = BASELINE_MAX_AGE_SECONDS * 1_000_000_000L;

  /**
   * A window this much faster than the baseline while the traffic fills the limit says that the
   * backend became faster: under overload a window's latency falls this far only then.
   */
  static final double MUCH_FASTER = 0.85;

  /** The most a window can shrink the target: by half. */
  private static final double MIN_GRADIENT = 0.5;

  private final int floor;
  private final int ceiling;
  private final double tolerance;

  private final int probeLimit;

  private double limit;
  private double baseline; // nanoseconds; 0 until the first probe ends
  private double lastAverage;

  /** Whether the window now open measures the baseline; the first one does. */
  private boolean probing = true;

  /**
   * When the probe began, once a probe has ended: requests admitted earlier may have queued. Before
   * that, every request was admitted under the first probe.
   */
  private long probeStart;

  private boolean probedBefore;

  /** When a probe measured the baseline, or a window as fast confirmed it. */
  private long confirmedAt;

  /** The limit when the current run of windows beyond the tolerance began; 0 outside one. */
  private double shrinkingFrom;

  /** How many windows in a row were much faster than the baseline, with the limit filled. */
  private int fasterWindows;

  private int samples;
  private long sum;
  private int peakInFlight;
  private long windowStart;

  /**
   * @param floor the least the limit may be, at least 1
   * @param ceiling the most, at least {@code floor}
   * @param initial where it starts, between the two
   * @param tolerance how many times the baseline a window's average latency may be before the limit
   *     shrinks, above 1
   * @throws IllegalArgumentException naming the bad value
   */
  public AdaptiveLimit(int floor, int ceiling, int initial, double tolerance) {
    check(floor, ceiling, initial, tolerance);
    this.floor = floor;
    this.ceiling = ceiling;
    this.tolerance = tolerance;
    this.limit = initial;
    this.probeLimit = Math.max(floor, Math.min(ceiling, PROBE_IN_FLIGHT));
  }

  /**
   * Checks the settings of {@link #AdaptiveLimit}.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static void check(int floor, int ceiling, int initial, double tolerance) {
    if (floor < 1 || ceiling < floor) {
      throw new IllegalArgumentException(
          "expected 1 <= floor <= ceiling, was floor " + floor + ", ceiling " + ceiling);
    }
    if (initial < floor || initial > ceiling) {
      throw new IllegalArgumentException(
          "expected the initial limit between " + floor + " and " + ceiling + ", was " + initial);
    }
    if (!(tolerance > 1 && tolerance <= 100)) {
      throw new IllegalArgumentException(
          "expected a tolerance above 1 and at most 100, was " + tolerance);
    }
  }

  /** The limit now: the most requests in flight (fewer while the baseline is measured). */
  public int limit() {
    return probing ? probeLimit : (int) limit;
  }

  /** The limit the latencies have moved it to, which a probe holds requests below meanwhile. */
  public int learnedLimit() {
    return (int) limit;
  }

  /** Whether the baseline is being measured, with the limit held low. */
  public boolean probing() {
    return probing;
  }

  /** The baseline latency in nanoseconds; 0 before the first window closed. */
  public long baselineNanos() {
    return (long) baseline;
  }

  /** The average latency of the last closed window in nanoseconds; 0 before the first. */
  public long lastAverageNanos() {
    return (long) lastAverage;
  }

  /**
   * One request ended.
   *
   * @param latencyNanos how long it took, from its admission to its end
   * @param inFlight the requests in flight as it ended, itself included
   * @param now the time it ended, on the owner's clock
   */
  public void sample(long latencyNanos, int inFlight, long now) {
    if (probing && probedBefore && now - latencyNanos - probeStart < 0) {
      return; // admitted before the probe, with its queue: not a baseline
    }
    if (!probing && now - confirmedAt >= BASELINE_MAX_AGE_NANOS) {
      probe(now); // the window now open is dropped: the next one measures
      return;
    }
    if (samples == 0) {
      windowStart = now;
    }
    samples++;
    sum += Math.max(0, latencyNanos);
    peakInFlight = Math.max(peakInFlight, inFlight);
    if (samples >= WINDOW_SAMPLES || now - windowStart >= WINDOW_NANOS) {
      close((double) sum / samples, now);
    }
  }

  private void probe(long now) {
    probing = true;
    probeStart = now;
    shrinkingFrom = 0;
    fasterWindows = 0;
    samples = 0;
    sum = 0;
    peakInFlight = 0;
  }

  private void close(double average, long now) {
    int peak = peakInFlight;
    samples = 0;
    sum = 0;
    peakInFlight = 0;
    lastAverage = average;
    if (probing) {
      probing = false;
      probedBefore = true;
      baseline = average;
      confirmedAt = now;
      return;
    }
    if (average <= baseline) {
      confirmedAt = now; // as fast as the baseline: no queueing, no doubt
    }
    // Two in a row: the first window after a probe holds the quickest of the requests it let in
    fasterWindows = average < baseline * MUCH_FASTER && peak * 2 >= limit ? fasterWindows + 1 : 0;
    if (fasterWindows >= 2) {
      probe(now); // the backend became faster: measure how much, without these windows' queueing
      return;
    }
    double gradient = Math.max(MIN_GRADIENT, Math.min(1, tolerance * baseline / average));
    double target;
    if (gradient < 1) {
      shrinkingFrom = shrinkingFrom > 0 ? shrinkingFrom : limit;
      target = limit * gradient; // queueing: give back in proportion
    } else if (peak * 2 < limit) {
      shrinkingFrom = 0;
      return; // the traffic is not testing the limit: no reason to raise it
    } else {
      shrinkingFrom = 0;
      target = limit + Math.sqrt(limit); // room to find out whether more would queue
    }
    limit = Math.max(floor, Math.min(ceiling, limit + (target - limit) * SMOOTHING));
    if (shrinkingFrom > 0 && limit <= Math.max(floor, shrinkingFrom / 2)) {
      probe(now); // less in flight did not bring the latency back: not queueing, a slower backend
    }
  }
}
