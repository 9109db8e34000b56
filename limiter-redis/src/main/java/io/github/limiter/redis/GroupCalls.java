package io.github.limiter.redis;

import io.github.limiter.Decision;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * How {@link Groups} decide on Redis: a group of {@code size} requests in one call of decide.lua,
 * whose reply {@link CompiledPolicy#decisions} turns into each request's decision; the policy's
 * failure mode decides each request if Redis does not answer in time.
 */
final class GroupCalls implements Groups.Decider {

  private final RedisStore store;
  private final GuardedCalls calls;

  GroupCalls(RedisStore store, GuardedCalls calls) {
    this.store = store;
    this.calls = calls;
  }

  Decision[] decide(CompiledPolicy c, String key, long permits, int size, long deadlineNanos) {
    return decide(c, key, c.keys(key), permits, size, deadlineNanos);
  }

  @Override
  public Decision[] decide(
      CompiledPolicy c,
      String key,
      List<String> redisKeys,
      long permits,
      int size,
      long deadlineNanos) {
    CircuitBreaker breaker = calls.breaker(redisKeys);
    if (breaker.tryAcquire()) {
      try {
        String n = size == 1 ? Long.toString(permits) : permits + ":" + size;
        return c.decisions(
            store.eval(breaker, c, c.decide, redisKeys, n, deadlineNanos), size, permits);
      } catch (Exception e) {
        // counted by the breaker; the failure mode decides each one
      }
    }
    Decision[] decisions = new Decision[size];
    for (int m = 0; m < size; m++) {
      decisions[m] = store.fallback(breaker, c.policy, key, permits);
    }
    return decisions;
  }

  @Override
  public Decision timedOut(CompiledPolicy c, String key, long permits) {
    CircuitBreaker breaker = calls.breaker(c.keys(key));
    breaker.onFailure(new TimeoutException("no reply from Redis within the decision timeout"));
    return store.fallback(breaker, c.policy, key, permits);
  }
}
