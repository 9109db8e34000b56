package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;

/**
 * Sliding window log: the exact count of permits admitted in the last W. Entries with {@code t <=
 * now - W} drop out, and k permits are admitted while {@code size + k <= N}.
 *
 * <p>State: {@code [head, size, t_0 .. t_{N-1}]}, a ring of the admission times of the last N
 * permits, oldest at {@code head}. Memory is O(N) per key, which is the price of exactness.
 *
 * <p>Carried to a new limit, a key keeps its newest admission times that fall within the new
 * window, at most the new N of them: the count against the new limit is exact whenever it is below
 * N, and at N the key waits for the oldest kept entry to drop out.
 */
public final class SlidingWindowLog implements LimitFunction {

  private static final int HEAD = 0;
  private static final int SIZE = 1;
  private static final int RING = 2;

  private final Limit limit;
  private final long window;
  private final int max;

  public SlidingWindowLog(Limit limit) {
    if (limit.permits() > 1 << 20) {
      throw new IllegalArgumentException(
          "a sliding-window-log keeps one timestamp per permit; at most 1048576 permits, was "
              + limit.permits()
              + " (use sliding-window-counter)");
    }
    this.limit = limit;
    this.window = limit.periodNanos();
    this.max = (int) limit.permits();
  }

  @Override
  public Limit limit() {
    return limit;
  }

  @Override
  public int stateSize() {
    return RING + max;
  }

  @Override
  public void fresh(long[] state, int at, long now) {
    state[at + HEAD] = 0;
    state[at + SIZE] = 0;
  }

  private long entry(long[] state, int at, long index) {
    return state[at + RING + (int) ((state[at + HEAD] + index) % max)];
  }

  /** How many of the oldest entries have dropped out of the window at {@code now}. */
  private int expired(long[] state, int at, long now) {
    int size = (int) state[at + SIZE];
    int expired = 0;
    while (expired < size && now - entry(state, at, expired) >= window) {
      expired++;
    }
    return expired;
  }

  @Override
  public long retryAfter(long[] state, int at, long now, long permits) {
    if (permits > max) {
      return NEVER;
    }
    int live = (int) state[at + SIZE] - expired(state, at, now);
    if (live + permits <= max) {
      return 0;
    }
    // The oldest (live + permits - max) live entries must drop out; the last of them decides.
    int expired = (int) state[at + SIZE] - live;
    long last = entry(state, at, expired + live + permits - max - 1);
    return last + window - now;
  }

  @Override
  public void admit(long[] state, int at, long now, long permits) {
    int expired = expired(state, at, now);
    long head = (state[at + HEAD] + expired) % max;
    long size = state[at + SIZE] - expired;
    // Keep the ring ordered even if a concurrent caller's clock reading is slightly behind.
    long newest = size > 0 ? state[at + RING + (int) ((head + size - 1) % max)] : now;
    long stamp = now - newest >= 0 ? now : newest;
    for (long i = 0; i < permits; i++) {
      state[at + RING + (int) ((head + size + i) % max)] = stamp;
    }
    state[at + HEAD] = head;
    state[at + SIZE] = size + permits;
  }

  /**
   * Charges like {@link #admit}, keeping only the newest N entries: a request needs at most N - 1
   * older ones to have dropped out, so the dropped ones never decide anything, and the debt is
   * exact.
   */
  @Override
  public void charge(long[] state, int at, long now, long permits) {
    long size = state[at + SIZE] - expired(state, at, now);
    long kept = Math.min(permits, max);
    long over = Math.max(0, size + kept - max);
    admit(state, at, now, kept - over);
    for (long i = 0; i < over; i++) {
      // The ring is full: the oldest entry gives way to a new one at the newest entry's stamp.
      long head = state[at + HEAD];
      long newest = state[at + RING + (int) ((head + max - 1) % max)];
      state[at + RING + (int) head] = now - newest >= 0 ? now : newest;
      state[at + HEAD] = (head + 1) % max;
    }
  }

  @Override
  public void refund(long[] state, int at, long now, long permits) {
    state[at + SIZE] = Math.max(0, state[at + SIZE] - permits);
  }

  @Override
  public void carry(
      LimitFunction from, long[] fromState, int fromAt, long[] state, int at, long now) {
    SlidingWindowLog old = (SlidingWindowLog) from;
    int size = (int) fromState[fromAt + SIZE];
    int first = old.expired(fromState, fromAt, now);
    while (first < size && now - old.entry(fromState, fromAt, first) >= window) {
      first++;
    }
    first = Math.max(first, size - max);
    state[at + HEAD] = 0;
    state[at + SIZE] = size - first;
    for (int i = first; i < size; i++) {
      state[at + RING + i - first] = old.entry(fromState, fromAt, i);
    }
  }

  @Override
  public long remaining(long[] state, int at, long now) {
    return max - (state[at + SIZE] - expired(state, at, now));
  }

  @Override
  public long resetAfter(long[] state, int at, long now) {
    int size = (int) state[at + SIZE];
    if (size == expired(state, at, now)) {
      return 0;
    }
    return entry(state, at, size - 1) + window - now;
  }
}
