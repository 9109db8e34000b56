package io.github.limiter.redis;

import io.github.limiter.NanoClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Script calls to Redis, each within the decision budget and counted by the circuit breaker of the
 * node that serves its keys. Whether a call may go out at all (a probe while the breaker is open,
 * or only while it is closed) is the caller's choice: {@link #breaker} first, then {@link #eval}.
 */
final class GuardedCalls {

  private final Transport transport;
  private final NanoClock clock;
  private final long budgetNanos;
  private final int breakerThreshold;
  private final long breakerOpenNanos;
  private final Duration logInterval;

  /**
   * One breaker per Redis node ({@code host:port}, or the cluster while its topology is unknown).
   */
  private final ConcurrentHashMap<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();

  GuardedCalls(
      Transport transport,
      NanoClock clock,
      long budgetNanos,
      int breakerThreshold,
      long breakerOpenNanos,
      Duration logInterval) {
    this.transport = transport;
    this.clock = clock;
    this.budgetNanos = budgetNanos;
    this.breakerThreshold = breakerThreshold;
    this.breakerOpenNanos = breakerOpenNanos;
    this.logInterval = logInterval;
  }

  /** The breaker of the node that serves these keys now (a decision's keys share one slot). */
  CircuitBreaker breaker(List<String> keys) {
    return breakerOf(transport.nodeOf(keys.get(0)));
  }

  /**
   * The breaker of the node that serves {@code clientKey}'s keys under {@code c}; on standalone
   * Redis without building them, as this runs for every decision.
   */
  CircuitBreaker breaker(CompiledPolicy c, String clientKey) {
    String node = transport.onlyNode();
    return node != null ? breakerOf(node) : breaker(c.keys(clientKey));
  }

  private CircuitBreaker breakerOf(String node) {
    CircuitBreaker breaker = breakers.get(node);
    return breaker != null
        ? breaker
        : breakers.computeIfAbsent(
            node,
            n -> new CircuitBreaker(n, breakerThreshold, breakerOpenNanos, logInterval, clock));
  }

  /**
   * Runs {@code script} within the decision budget and returns its reply; {@code breaker} counts
   * the success or the failure.
   *
   * @throws Exception the failure, after the breaker counted it; an interrupt stays set
   */
  Object eval(CircuitBreaker breaker, Scripts.Script script, List<String> keys, List<String> args)
      throws Exception {
    return eval(breaker, script, keys, args, clock.nanos() + budgetNanos);
  }

  /** {@link #eval}, within {@code deadlineNanos} on this store's clock rather than the budget. */
  Object eval(
      CircuitBreaker breaker,
      Scripts.Script script,
      List<String> keys,
      List<String> args,
      long deadlineNanos)
      throws Exception {
    Object reply;
    try {
      reply = transport.eval(script, keys, args, deadlineNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      breaker.onFailure(e);
      throw e;
    } catch (Exception e) {
      breaker.onFailure(e);
      throw e;
    }
    breaker.onSuccess();
    return reply;
  }

  /** The breakers by node, for health: the nodes that serve slots now, when known. */
  Map<String, CircuitBreaker> breakers() {
    return breakers;
  }

  long budgetNanos() {
    return budgetNanos;
  }

  NanoClock clock() {
    return clock;
  }

  Transport transport() {
    return transport;
  }
}
