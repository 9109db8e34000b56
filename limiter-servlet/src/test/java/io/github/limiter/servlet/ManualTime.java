package io.github.limiter.servlet;

import io.github.limiter.Limiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import jakarta.servlet.ServletContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Time that moves only when a test says so, for the filter's store and its shaping scheduler: a
 * held request is dispatched when {@link #advance} reaches its departure, never on a real clock.
 */
final class ManualTime implements Shaper.Scheduler, AutoCloseable {

  private record Task(long due, Runnable run) {}

  final ManualClock clock = ManualClock.at(Long.MAX_VALUE - Duration.ofMinutes(10).toNanos());
  private final List<Task> tasks = new ArrayList<>();
  private final List<Limiter> limiters = new ArrayList<>();

  /** The wall clock the store reads once, when built: where calendar quotas place their periods. */
  private final Clock wall;

  ManualTime() {
    this.wall = Clock.systemUTC();
  }

  /** Time whose wall clock reads {@code wallAtStart} when the test begins. */
  ManualTime(Instant wallAtStart) {
    this.wall = Clock.fixed(wallAtStart, ZoneOffset.UTC);
  }

  @Override
  public synchronized void schedule(Runnable task, long nanos) {
    tasks.add(new Task(clock.nanos() + nanos, task));
  }

  @Override
  public synchronized void shutdown() {
    tasks.clear();
  }

  /** How many held requests wait for a departure. */
  synchronized int pending() {
    return tasks.size();
  }

  /** Moves the clock by {@code delta}, then runs every task now due, earliest first. */
  void advance(Duration delta) {
    clock.advance(delta);
    List<Task> due = new ArrayList<>();
    synchronized (this) {
      long now = clock.nanos();
      tasks.removeIf(task -> now - task.due >= 0 && due.add(task));
    }
    due.sort((a, b) -> Long.signum(a.due - b.due));
    due.forEach(task -> task.run.run());
  }

  /**
   * Registers a ready filter configured by {@code props}, deciding on this time: for {@link
   * TestServer#context}.
   */
  Consumer<ServletContext> filter(Map<String, String> props) {
    Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).wallClock(wall).build());
    limiters.add(limiter);
    return TestServer.filter(
        new RateLimitFilter(LimiterConfig.from(ConfigLookup.of(props)), limiter, () -> this));
  }

  @Override
  public void close() {
    limiters.forEach(Limiter::close);
  }
}
