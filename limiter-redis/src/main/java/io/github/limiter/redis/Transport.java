package io.github.limiter.redis;

import java.util.List;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * How a script call reaches Redis within a deadline: directly (standalone) or via workers
 * (cluster).
 */
interface Transport extends AutoCloseable {

  /**
   * Runs {@code script} by EVALSHA and returns its reply, or throws; never blocks past {@code
   * deadlineNanos} (a reading of the store's clock) by more than scheduling jitter.
   */
  Object eval(Scripts.Script script, List<String> keys, List<String> args, long deadlineNanos)
      throws Exception;

  /**
   * The node that serves {@code key} now, as {@code host:port}: the store keeps one circuit breaker
   * per node, so that a dead cluster master degrades only its own slots.
   */
  String nodeOf(String key);

  /** The one node that serves every key (standalone), or null when that depends on the key. */
  default String onlyNode() {
    return null;
  }

  /** The nodes that serve keys now, as {@link #nodeOf} names them; empty while unknown. */
  Set<String> nodes();

  @Override
  void close();

  /**
   * EVALSHA; on NOSCRIPT (after a restart, a failover or SCRIPT FLUSH) one EVAL, which runs the
   * script and caches it again on that node.
   */
  static Object evalsha(
      UnifiedJedis jedis, Scripts.Script script, List<String> keys, List<String> args) {
    try {
      return jedis.evalsha(script.sha(), keys, args);
    } catch (JedisNoScriptException e) {
      return jedis.eval(script.source(), keys, args);
    }
  }
}
