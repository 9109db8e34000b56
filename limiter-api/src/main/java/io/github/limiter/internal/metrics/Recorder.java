package io.github.limiter.internal.metrics;

import java.util.List;

/**
 * Where the admission step reports what it decided, for a metrics backend. Called once per request
 * from the one admission step, so every method must be cheap and must never throw. Nothing is ever
 * tagged by client key: a key can be a credential, and keys are unbounded.
 *
 * <p>{@link #NOOP} is the recorder when metrics are off or no backend is present: the call is an
 * empty method on a constant, which the JIT removes.
 */
public interface Recorder {

  /** What a request's policy decided; the {@code outcome} tag of {@code limiter.decisions}. */
  enum Verdict {
    ADMITTED("admitted"),
    REJECTED("rejected"),
    /** A dry-run policy would have rejected; the request went through. */
    DRY_RUN_REJECTED("dry-run-rejected"),
    /** The store could not decide and the failure mode rejected (fail-closed). */
    UNAVAILABLE("unavailable");

    private final String tag;

    Verdict(String tag) {
      this.tag = tag;
    }

    /** The tag value, e.g. {@code dry-run-rejected}. */
    public String tag() {
      return tag;
    }
  }

  /** What an outbound policy saw; the {@code event} tag of {@code limiter.outbound}. */
  enum OutboundEvent {
    /** A call went out to the upstream. */
    CALLED("called"),
    /** A call waited for the local budget or an upstream's block, then went on. */
    WAITED("waited"),
    /** A call was refused locally after {@code max-wait}: the caller got the exception. */
    FAILED("failed"),
    /** The upstream refused a call, 429 or 503. */
    REFUSED("refused"),
    /** The upstream asked for a pause (Retry-After, or nothing remaining): calls to it block. */
    BLOCKED("blocked"),
    /** A refused call was sent again. */
    RETRIED("retried");

    private final String tag;

    OutboundEvent(String tag) {
      this.tag = tag;
    }

    /** The tag value, e.g. {@code refused}. */
    public String tag() {
      return tag;
    }
  }

  /**
   * One policy's decision on one request: {@code limiter.decisions{policy,outcome,verified}}.
   *
   * @param verified false when a failure mode decided without the store
   */
  void decision(String policy, Verdict outcome, boolean verified);

  /**
   * An admission that left at most {@code limiter.events.near-limit} of the quota: {@code
   * limiter.near.limit{policy}}.
   */
  void nearLimit(String policy);

  /** The wait of a shaped (delayed) request: {@code limiter.shaping.delay{policy}}. */
  void shapingDelay(String policy, long nanos);

  /** How long one store decision took: {@code limiter.store.duration{store}}. */
  void storeDuration(String store, long nanos);

  /**
   * Registers, once at start-up, the gauges of a store: {@code limiter.store.circuit.state{store}},
   * and for a store that keeps keys in memory {@code limiter.memory.keys} and {@code
   * limiter.memory.evictions}. The gauges read the store when scraped, never on the hot path.
   */
  void watch(StoreGauges store);

  /**
   * What an outbound policy saw on one call: {@code limiter.outbound{policy,event}}. This default
   * records nothing, for recorders of inbound metrics only.
   */
  default void outbound(String policy, OutboundEvent event) {}

  /**
   * Registers, once at start-up, the gauges of an adaptive concurrency limit: {@code
   * limiter.concurrency.limit}, {@code limiter.concurrency.in.flight}, {@code
   * limiter.concurrency.latency} and {@code limiter.concurrency.latency.baseline}, each {@code
   * {policy}}. A backend without gauges ignores it.
   */
  default void watch(ConcurrencyGauges limit) {}

  /**
   * One change an operator made through the admin API: {@code
   * limiter.admin.changes{policy,action}}, the action such as {@code limits} or {@code
   * trial-apply}. Never tagged by the key the change was about.
   */
  default void adminChange(String policy, String action) {}

  /** Records nothing. */
  Recorder NOOP =
      new Recorder() {
        @Override
        public void decision(String policy, Verdict outcome, boolean verified) {}

        @Override
        public void nearLimit(String policy) {}

        @Override
        public void shapingDelay(String policy, long nanos) {}

        @Override
        public void storeDuration(String store, long nanos) {}

        @Override
        public void watch(StoreGauges store) {}

        @Override
        public String toString() {
          return "Recorder.NOOP";
        }
      };

  /** {@link #NOOP} for none, the recorder itself for one, else one that records on each in turn. */
  static Recorder of(List<Recorder> recorders) {
    List<Recorder> all = recorders.stream().filter(r -> r != NOOP).toList();
    return switch (all.size()) {
      case 0 -> NOOP;
      case 1 -> all.get(0);
      default -> new FanOut(all.toArray(Recorder[]::new));
    };
  }
}
