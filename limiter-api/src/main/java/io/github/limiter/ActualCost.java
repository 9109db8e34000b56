package io.github.limiter;

/**
 * The real cost of the request being handled, when it is known only while the request runs: the LLM
 * tokens a completion used, the rows an export wrote. A request is charged its cost (or {@code
 * permits}) when it is admitted, so that concurrent requests can never pass the limit together;
 * what it reports here settles the difference when it ends, under the servlet filter and under
 * {@code @Limited} alike. A report above what was charged is charged on top, as debt if the key has
 * too little left, which later requests wait out (up to one more capacity); a report below it gives
 * the difference back.
 *
 * <pre>{@code
 * Completion c = model.complete(prompt);
 * ActualCost.current().report(c.totalTokens());
 * }</pre>
 *
 * <p>A report without a policy name applies to the request's policies that take a cost ({@code
 * limiter.policy.NAME.cost}, or {@code @Limited(cost = ...)}); {@link #report(String, long)} names
 * one policy, costed or not. The last report for a policy wins. A request that does not count
 * ({@code count}, {@code countOn}) is refunded whole, whatever it reported.
 */
public abstract class ActualCost {

  private static final ThreadLocal<ActualCost> CURRENT = new ThreadLocal<>();

  /** Outside a limited request: reports go nowhere. */
  private static final ActualCost NONE =
      new ActualCost() {
        @Override
        protected void record(String policy, long permits) {}
      };

  /** Only Limiter's adapters make handles. */
  protected ActualCost() {}

  /**
   * The handle of the request this thread is handling under Limiter; outside one, a handle that
   * ignores reports ({@link #isActive()} is false). Take it on the request's thread; it may be used
   * from any thread until the request ends (an asynchronous request ends when its async context
   * completes).
   */
  public static ActualCost current() {
    ActualCost bound = CURRENT.get();
    return bound == null ? NONE : bound.handle();
  }

  /**
   * Reports the request's actual cost under each of its policies that take a cost.
   *
   * @throws IllegalArgumentException if {@code permits} is negative
   */
  public final void report(long permits) {
    record(null, checked(permits));
  }

  /**
   * Reports the request's actual cost under {@code policy}.
   *
   * @throws IllegalArgumentException if {@code permits} is negative or {@code policy} is blank
   */
  public final void report(String policy, long permits) {
    if (policy == null || policy.isBlank()) {
      throw new IllegalArgumentException("a policy name is required, was '" + policy + "'");
    }
    record(policy, checked(permits));
  }

  /** Whether reports reach a request that Limiter admitted. */
  public final boolean isActive() {
    return this != NONE;
  }

  /**
   * For Limiter's adapters: keeps a checked report; {@code policy} null means every policy of the
   * request that takes a cost.
   */
  protected abstract void record(String policy, long permits);

  /** For Limiter's adapters: the handle that {@link #current()} answers while this is bound. */
  protected ActualCost handle() {
    return this;
  }

  /**
   * For Limiter's adapters: binds {@code cost} to this thread (null: none); returns the previous.
   */
  protected static ActualCost bind(ActualCost cost) {
    ActualCost previous = CURRENT.get();
    CURRENT.set(cost);
    return previous;
  }

  private static long checked(long permits) {
    if (permits < 0) {
      throw new IllegalArgumentException("an actual cost must be at least 0, was " + permits);
    }
    return permits;
  }
}
