package io.github.limiter.internal.log;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** A logger of its own whose records a test reads, instead of the console. */
final class CapturedLog extends Handler {

  final Logger logger = Logger.getAnonymousLogger();
  final List<LogRecord> records = new ArrayList<>();

  CapturedLog() {
    logger.setUseParentHandlers(false);
    logger.addHandler(this);
  }

  @Override
  public void publish(LogRecord record) {
    records.add(record);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}
}
