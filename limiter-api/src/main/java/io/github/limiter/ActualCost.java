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
        public void report(long permits) {
          checked(permits);
        }

        @Override
        public void report(String policy, long permits) {
          checkedPolicy(policy);
          checked(permits);
        }

        @Override
        public boolean isActive() {
          return false;
        }
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
  public abstract void report(long permits);

  /**
   * Reports the request's actual cost under {@code policy}.
   *
   * @throws IllegalArgumentException if {@code permits} is negative
   */
  public abstract void report(String policy, long permits);

  /** Whether reports reach a request that Limiter admitted. */
  public abstract boolean isActive();

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

  protected static long checked(long permits) {
    if (permits < 0) {
      throw new IllegalArgumentException("an actual cost must be at least 0, was " + permits);
    }
    return permits;
  }

  protected static String checkedPolicy(String policy) {
    if (policy == null || policy.isBlank()) {
      throw new IllegalArgumentException("a policy name is required, was '" + policy + "'");
    }
    return policy;
  }
}
