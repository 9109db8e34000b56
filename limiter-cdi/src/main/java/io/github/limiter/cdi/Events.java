package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.ObserverMethod;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;

/**
 * Fires the limiter's events, but only those somebody observes: whether a type has synchronous or
 * asynchronous observers is asked once, after deployment, when observers can no longer change.
 */
final class Events {

  private final Channel<RateLimitRejected> rejected;
  private final Channel<RateLimitAdmitted> admitted;
  private final Channel<RateLimitNearLimit> nearLimit;

  Events(BeanManager beans) {
    Policy policy = Policy.fixedWindow("sample", Limit.of(1, Duration.ofSeconds(1)));
    Decision decision = Decision.limited("sample", policy.limits().get(0), 1, 1);
    Method method = sampleMethod();
    rejected =
        new Channel<>(
            beans,
            RateLimitRejected.class,
            new RateLimitRejected(policy, decision, "", method, false));
    admitted =
        new Channel<>(
            beans, RateLimitAdmitted.class, new RateLimitAdmitted(policy, decision, "", method));
    nearLimit =
        new Channel<>(
            beans, RateLimitNearLimit.class, new RateLimitNearLimit(policy, decision, "", method));
  }

  private static Method sampleMethod() {
    try {
      return Object.class.getMethod("toString");
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("Object has toString()", e);
    }
  }

  boolean rejectedObserved() {
    return rejected.observed();
  }

  boolean admittedObserved() {
    return admitted.observed();
  }

  boolean nearLimitObserved() {
    return nearLimit.observed();
  }

  void rejected(RateLimitRejected event) {
    rejected.fire(event);
  }

  void admitted(RateLimitAdmitted event) {
    admitted.fire(event);
  }

  void nearLimit(RateLimitNearLimit event) {
    nearLimit.fire(event);
  }

  /** One event type: its Event, and which kinds of observer it has. */
  private static final class Channel<T> {
    private final Event<T> event;
    private final boolean sync;
    private final boolean async;

    Channel(BeanManager beans, Class<T> type, T sample) {
      Set<ObserverMethod<? super T>> observers = beans.resolveObserverMethods(sample);
      this.sync = observers.stream().anyMatch(observer -> !observer.isAsync());
      this.async = observers.stream().anyMatch(ObserverMethod::isAsync);
      this.event = sync || async ? beans.getEvent().select(type) : null;
    }

    boolean observed() {
      return sync || async;
    }

    void fire(T payload) {
      if (sync) {
        event.fire(payload);
      }
      if (async) {
        event.fireAsync(payload);
      }
    }
  }
}
