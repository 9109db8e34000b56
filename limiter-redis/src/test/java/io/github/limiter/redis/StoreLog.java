package io.github.limiter.redis;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The lines the store logs (on {@code RedisStore}'s logger), captured until closed. */
final class StoreLog extends Handler implements AutoCloseable {

  private final Logger logger = Logger.getLogger(RedisStore.class.getName());
  private final ConcurrentLinkedQueue<LogRecord> records = new ConcurrentLinkedQueue<>();

  StoreLog() {
    logger.addHandler(this);
  }

  /** The lines so far, oldest first. */
  List<LogRecord> records() {
    return List.copyOf(records);
  }

  /** Their messages. */
  List<String> messages() {
    return records.stream().map(LogRecord::getMessage).toList();
  }

  @Override
  public void publish(LogRecord record) {
    records.add(record);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
  }
}
