package io.github.limiter.outbound;

import io.github.limiter.Decision;
import io.github.limiter.KeyResolver;
import io.github.limiter.Limiter;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.UpstreamBlocks;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.log.RateLimitedLog;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.Recorder.OutboundEvent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.random.RandomGenerator;

/**
 * One outbound policy at run time: the limits of calls to upstreams, keyed by the upstream (scheme,
 * host, port) and, if configured, a digest of the call's credential, decided by the configured
 * store, so that every node of a cluster shares one budget per upstream and learns of an upstream's
 * refusal from one of them.
 *
 * <p>Around any HTTP client: {@link #begin} before the call (it waits up to {@code max-wait}, then
 * goes on or throws {@link OutboundLimitException}), {@link OutboundCall#end} with the answer. For
 * {@code java.net.http}, {@link #send} does both, and the retries. Jakarta REST clients use {@link
 * OutboundFilter}. Thread-safe; get one from {@link Outbound}.
 */
public final class OutboundLimiter {

  private static final Logger LOG = Logger.getLogger(OutboundLimiter.class.getName());

  private final OutboundConfig config;
  private final RateLimitStore store;

  /** The store's upstream blocks; null for a store that keeps none, whose callers are not told. */
  private final UpstreamBlocks blocks;

  private final Recorder recorder;
  private final KeyResolver resolver;
  private final NanoClock clock;
  private final Sleeper sleeper;
  private final UpstreamSignals signals;
  private final RetryPlan retries;
  private final Set<OutboundCall> open = ConcurrentHashMap.newKeySet();
  private final OverdueCalls overdue;
  private final RateLimitedLog overdueLog;

  OutboundLimiter(
      OutboundConfig config,
      RateLimitStore store,
      Recorder recorder,
      KeyResolver resolver,
      NanoClock clock,
      Sleeper sleeper,
      Clock wall,
      RandomGenerator random,
      OverdueCalls overdue) {
    this.config = Objects.requireNonNull(config, "config");
    this.store = Objects.requireNonNull(store, "store");
    this.blocks = store.view(UpstreamBlocks.class).orElse(null);
    this.recorder = recorder;
    this.resolver = resolver;
    this.clock = clock;
    this.sleeper = sleeper;
    this.signals = new UpstreamSignals(config.name(), config.maxBlock(), wall);
    this.retries = new RetryPlan(config.retry(), random);
    this.overdue = overdue;
    this.overdueLog = new RateLimitedLog(LOG, OutboundLimiter.class, Duration.ofMinutes(1), clock);
  }

  /** The outbound policy's name. */
  public String name() {
    return config.name();
  }

  /** The limits, algorithm and failure mode. */
  public Policy policy() {
    return config.policy();
  }

  OutboundConfig config() {
    return config;
  }

  /**
   * Lets a call to {@code uri} go out under this policy, waiting up to {@code max-wait} for the
   * budget and for any block the upstream asked for.
   *
   * @param credential the credential the call carries, when the policy keeps a budget per
   *     credential (only a digest of it is stored); null for none
   * @throws OutboundLimitException when the call cannot go out within {@code max-wait}, with the
   *     wait; an interrupt while waiting stays set and ends in it too
   */
  public OutboundCall begin(URI uri, String credential) {
    return begin(uri, credential, config.maxWait().toNanos());
  }

  OutboundCall begin(URI uri, String credential, long maxWaitNanos) {
    String upstream = OutboundConfig.origin(uri);
    String key = key(upstream, credential);
    long start = clock.nanos();
    boolean waited = false;
    while (true) {
      long blocked = blocks == null ? 0 : blocks.block(policy(), key, 0);
      long wait;
      boolean upstreamBlock = blocked > 0;
      if (upstreamBlock) {
        wait = blocked;
      } else {
        Decision decision = store.decide(policy(), key, config.permits());
        if (decision.isAllowed()) {
          return called(upstream, key, true, waited);
        }
        wait = decision.retryAfterNanos();
      }
      long left = maxWaitNanos - (clock.nanos() - start);
      if (wait > left) {
        if (upstreamBlock || !config.proceed() || wait == Long.MAX_VALUE) {
          recorder.outbound(name(), OutboundEvent.FAILED);
          throw new OutboundLimitException(name(), upstream, wait, upstreamBlock);
        }
        pause(left, upstream, upstreamBlock);
        // Budget still spent after max-wait: the policy says to go on, uncharged.
        return called(upstream, key, false, true);
      }
      pause(wait, upstream, upstreamBlock);
      waited = true;
    }
  }

  private OutboundCall called(String upstream, String key, boolean charged, boolean waited) {
    if (waited) {
      recorder.outbound(name(), OutboundEvent.WAITED);
    }
    recorder.outbound(name(), OutboundEvent.CALLED);
    OutboundCall call = new OutboundCall(this, upstream, key, charged, clock.nanos());
    if (call.holdsPermit()) {
      open.add(call);
      overdue.watch(this);
    }
    return call;
  }

  private void pause(long nanos, String upstream, boolean upstreamBlock) {
    try {
      sleeper.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      recorder.outbound(name(), OutboundEvent.FAILED);
      throw new OutboundLimitException(name(), upstream, nanos, upstreamBlock);
    }
  }

  /** The upstream's answer to a call: blocks calls when it asks; the block, in nanoseconds. */
  long answered(String key, int status, Function<String, String> header) {
    if (UpstreamSignals.refused(status)) {
      recorder.outbound(name(), OutboundEvent.REFUSED);
    }
    long block;
    try {
      block = signals.blockNanos(status, header);
    } catch (RuntimeException e) {
      block = 0; // a header that breaks the parser is ignored like a malformed one
    }
    if (block > 0) {
      recorder.outbound(name(), OutboundEvent.BLOCKED);
      if (blocks != null) {
        blocks.block(policy(), key, block);
      }
    }
    return block;
  }

  void release(OutboundCall call) {
    open.remove(call);
    store.refund(policy(), call.key(), config.permits());
  }

  /**
   * Gives back the permits of the calls that began more than {@code max-call-time} ago and have not
   * ended: a call whose failure the client never showed (see {@link OutboundFilter}) would hold its
   * permit for as long as the node lives, and on Redis the node would keep renewing it.
   *
   * @return how many calls were abandoned
   */
  int abandonOverdue() {
    long now = clock.nanos();
    long most = config.maxCallTime().toNanos();
    int abandoned = 0;
    for (OutboundCall call : open) {
      if (now - call.startNanos() > most) {
        call.abandon();
        abandoned++;
        overdueLog.log(
            Level.WARNING,
            "abandonOverdue",
            "Outbound policy '"
                + name()
                + "': a call to "
                + call.upstream()
                + " did not end within max-call-time ("
                + config.maxCallTime().toMillis()
                + "ms); its permit is given back");
      }
    }
    return abandoned;
  }

  /** The calls that hold a concurrency permit and have not ended. */
  int openCalls() {
    return open.size();
  }

  /**
   * The credential of a call whose header fields are {@code headers} (null for none): the {@code
   * credential=header:NAME} field, or what the {@code resolver:NAME} resolver finds in them.
   */
  String credential(Function<String, List<String>> headers, Object request) {
    KeySource source = config.credential();
    if (source == null) {
      return null;
    }
    OutgoingRequest view = new OutgoingRequest(headers, request);
    return source.kind() == KeySource.Kind.HEADER
        ? view.header(source.argument())
        : resolver.resolve(view);
  }

  /**
   * {@code upstream}, or {@code upstream} and a digest of the credential, so that no secret is
   * stored; a digest of it all beyond {@link Limiter#MAX_KEY_LENGTH} (a very long host name).
   */
  static String key(String upstream, String credential) {
    String key =
        credential == null || credential.isEmpty()
            ? upstream
            : upstream + " " + digest(credential).substring(0, 22);
    return key.length() <= Limiter.MAX_KEY_LENGTH ? key : "sha256:" + digest(key);
  }

  private static String digest(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /**
   * Sends {@code request} with {@code client} under this policy: {@link #begin}, the call, {@link
   * OutboundCall#end}; then, if {@code retry-attempts} allows, sends an idempotent request refused
   * with 429 or 503 again after the upstream's Retry-After or a jittered backoff. A body is sent
   * again only when it can be repeated (a known length: a string, bytes, a file; not a stream). The
   * last answer is returned, refused or not.
   *
   * @throws OutboundLimitException when the call cannot go out within {@code max-wait}
   */
  public <T> HttpResponse<T> send(
      HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    Map<String, List<String>> headers = request.headers().map();
    String credential = credential(name -> headerOf(headers, name), request);
    boolean retryable =
        retries.enabled()
            && RetryPlan.idempotent(request.method())
            && request.bodyPublisher().map(body -> body.contentLength() >= 0).orElse(true);
    long start = clock.nanos();
    long maxWait = config.maxWait().toNanos();
    for (int sent = 1; ; sent++) {
      OutboundCall call = begin(request.uri(), credential, maxWait);
      HttpResponse<T> response;
      try {
        response = client.send(request, handler);
      } catch (IOException | InterruptedException | RuntimeException e) {
        call.abandon();
        throw e;
      }
      long block =
          call.endNanos(
              response.statusCode(), name -> response.headers().firstValue(name).orElse(null));
      if (!retryable || !UpstreamSignals.refused(response.statusCode())) {
        return response;
      }
      long elapsed = clock.nanos() - start;
      long wait = retries.next(sent, elapsed, block);
      if (wait == RetryPlan.STOP) {
        return response;
      }
      if (response.body() instanceof AutoCloseable body) {
        close(body);
      }
      recorder.outbound(name(), OutboundEvent.RETRIED);
      sleeper.sleep(wait);
      // The retry may wait for the budget as long as the retries have time left.
      maxWait = Math.max(config.maxWait().toNanos(), retries.maxTimeNanos() - elapsed - wait);
    }
  }

  /** The retry plan, for the client filter. */
  RetryPlan retries() {
    return retries;
  }

  Sleeper sleeper() {
    return sleeper;
  }

  NanoClock clock() {
    return clock;
  }

  Recorder recorder() {
    return recorder;
  }

  private static List<String> headerOf(Map<String, List<String>> headers, String name) {
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase(name)) {
        return header.getValue();
      }
    }
    return null;
  }

  private static void close(AutoCloseable body) {
    try {
      body.close();
    } catch (Exception e) {
      // the refused answer's body is dropped either way
    }
  }

  @Override
  public String toString() {
    return "OutboundLimiter[" + config.policy() + "]";
  }
}
