package io.github.limiter.tck.redis;

/**
 * An error reply from Redis, such as {@code NOAUTH Authentication required.} or {@code ERR ...}.
 */
public final class RedisReplyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public RedisReplyException(String reply) {
    super(reply);
  }

  /** The error's code: its first word, e.g. {@code NOAUTH}, {@code ERR}, {@code NOSCRIPT}. */
  public String code() {
    String reply = getMessage();
    int space = reply.indexOf(' ');
    return space < 0 ? reply : reply.substring(0, space);
  }
}
