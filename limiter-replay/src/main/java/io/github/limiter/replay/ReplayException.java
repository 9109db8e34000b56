package io.github.limiter.replay;

/** Bad input to the replay tool: the message names the line or the parameter. */
final class ReplayException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ReplayException(String message) {
    super(message);
  }
}
