package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;

/**
 * One limit's algorithm as a pure next-state function over a slice of {@code long} slots.
 *
 * <p>The state of a key lives in {@code state[at .. at + stateSize())}. Nothing here keeps state or
 * reads a clock: the caller passes {@code now} in nanoseconds, from whatever clock its store
 * trusts. Only {@link #admit} writes, and only into the slice it is given, so a store can evaluate
 * a snapshot, copy it on admission and publish the copy with one compare-and-set.
 */
public interface LimitFunction {

  /** Returned by {@link #retryAfter} when the request can never be admitted. */
  long NEVER = Long.MAX_VALUE;

  /** The limit this function enforces. */
  Limit limit();

  /** How many slots the state of one key takes. */
  int stateSize();

  /** Writes the state of a key seen for the first time at {@code now}. */
  void fresh(long[] state, int at, long now);

  /**
   * Returns 0 if {@code permits} would be admitted at {@code now}; otherwise the nanoseconds until
   * the earliest time at which the same request would be, or {@link #NEVER}. Reads only.
   */
  long retryAfter(long[] state, int at, long now, long permits);

  /** Charges an admissible request: the caller has seen {@link #retryAfter} return 0. */
  void admit(long[] state, int at, long now, long permits);

  /**
   * Charges {@code permits} whether or not they are admissible: a request's actual cost, settled
   * after it was admitted. What is charged beyond what is left becomes debt that later requests
   * wait out, as far as the state can hold it: at most one more capacity (a full bucket or window)
   * is owed, so one misreported cost cannot lock a key out for longer than that.
   */
  void charge(long[] state, int at, long now, long permits);

  /**
   * Gives back up to {@code permits} charged earlier, as well as the algorithm can: used when a
   * later policy of an all-or-nothing request rejects it.
   */
  void refund(long[] state, int at, long now, long permits);

  /**
   * Writes into {@code state[at ..]} the state that a key had in {@code fromState[fromAt ..]} under
   * {@code from}, the limit of the same algorithm that this one replaces while the application
   * runs: the key keeps what it has used, counted against this limit as of {@code now}. Nothing
   * resets and no key gains: each algorithm's class says its rule.
   */
  void carry(LimitFunction from, long[] fromState, int fromAt, long[] state, int at, long now);

  /** Permits that could be admitted at {@code now}. */
  long remaining(long[] state, int at, long now);

  /** Nanoseconds until the state is fresh again (a full bucket, an empty window); 0 if it is. */
  long resetAfter(long[] state, int at, long now);

  /**
   * Nanoseconds from {@code now} until the last admitted request departs; 0 but for the leaky
   * bucket.
   */
  default long delay(long[] state, int at, long now) {
    return 0;
  }
}
