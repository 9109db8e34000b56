package io.github.limiter.internal.render;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.admission.Decisions;
import io.github.limiter.internal.http.HttpSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Renders decisions as HTTP: the headers of draft-ietf-httpapi-ratelimit-headers on every response
 * under a policy, and for a rejection the status, {@code Retry-After}, {@code Cache-Control:
 * no-store} (RFC 6585: a 429 must not be stored) and an {@code application/problem+json} body (RFC
 * 9457) that names the policy and shows no internals.
 *
 * <p>Header values for a policy {@code api} of 100 per minute with 42 left, resetting in 18 s:
 *
 * <pre>
 * RateLimit-Policy: "api";q=100;w=60
 * RateLimit: "api";r=42;t=18
 * </pre>
 *
 * For a bucket, {@code q} is the capacity and {@code w} the seconds to refill it; for a concurrency
 * limit, {@code q} is the requests in flight and there is no {@code w}. A policy with several
 * limits lists each, named {@code api}, {@code api.2}, ...; {@code RateLimit} reports the limit
 * nearest to rejecting.
 */
public final class ResponseRenderer {

  public static final String PROBLEM_JSON = "application/problem+json";
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final int MAX_CACHED = 1024;
  private static final String RATE_LIMITED = "urn:limiter:problem:rate-limited";
  private static final String TOO_MANY_REQUESTS = "Too Many Requests";

  /** Stands for the seconds in a cached body; no policy name or status can contain it. */
  private static final String SECONDS = "\u0000";

  private final HttpSettings settings;

  /**
   * What never changes for a policy, worked out on its first response. Policies are few and fixed,
   * so a copy-on-write identity map: a lookup is one identity hash, with no lock and no allocation.
   */
  private volatile IdentityHashMap<Policy, Rendered> rendered = new IdentityHashMap<>();

  /** A policy's fixed header parts. */
  private static final class Rendered {
    final String policyHeader;

    /** {@code "api";r=} for each limit, to which the remaining permits are appended. */
    final String[] itemPrefixes;

    final long[] quotas;

    /** The usual problem body around its one variable, the seconds to wait: rendered once. */
    final byte[] limitedHead;

    final byte[] limitedTail;

    Rendered(Policy policy, int status) {
      List<Limit> limits = policy.limits();
      StringBuilder header = new StringBuilder();
      itemPrefixes = new String[limits.size()];
      quotas = new long[limits.size()];
      for (int i = 0; i < limits.size(); i++) {
        Limit each = limits.get(i);
        quotas[i] = quota(policy.algorithm(), each);
        if (i > 0) {
          header.append(", ");
        }
        header.append('"').append(itemName(policy, i)).append("\";q=").append(quotas[i]);
        // A concurrency quota is requests in flight, over no window.
        if (policy.algorithm() != Algorithm.CONCURRENCY) {
          header.append(";w=").append(windowSeconds(policy.algorithm(), each));
        }
        itemPrefixes[i] = "\"" + itemName(policy, i) + "\";r=";
      }
      policyHeader = header.toString();
      String[] limited =
          problem(
                  RATE_LIMITED,
                  TOO_MANY_REQUESTS,
                  status,
                  "Rate limit of policy '"
                      + policy.name()
                      + "' exceeded; retry after "
                      + SECONDS
                      + " s.",
                  policy.name())
              .split(SECONDS, -1);
      limitedHead = limited[0].getBytes(StandardCharsets.UTF_8);
      limitedTail = limited[1].getBytes(StandardCharsets.UTF_8);
    }
  }

  public ResponseRenderer(HttpSettings settings) {
    this.settings = settings;
  }

  private Rendered rendered(Policy policy) {
    Rendered found = rendered.get(policy);
    if (found == null && rendered.size() >= MAX_CACHED) {
      return new Rendered(
          policy, settings.rejectionStatus()); // policies made per request: never kept
    }
    if (found == null) {
      synchronized (this) {
        found = rendered.get(policy);
        if (found == null) {
          found = new Rendered(policy, settings.rejectionStatus());
          IdentityHashMap<Policy, Rendered> copy = new IdentityHashMap<>(rendered);
          copy.put(policy, found);
          rendered = copy;
        }
      }
    }
    return found;
  }

  /**
   * The {@code RateLimit-Policy} value of {@code policy}: the same on every response, so computed
   * once.
   */
  public String policyHeader(Policy policy) {
    return rendered(policy).policyHeader;
  }

  public HttpSettings settings() {
    return settings;
  }

  /** Whole seconds, rounded up and at least 1: never earlier than the real time. */
  public static long retryAfterSeconds(long nanos) {
    return Math.max(1, ceilSeconds(nanos));
  }

  private static long ceilSeconds(long nanos) {
    return nanos / NANOS_PER_SECOND + (nanos % NANOS_PER_SECOND > 0 ? 1 : 0);
  }

  /**
   * Writes the rate-limit headers of {@code decision} under {@code policy} to {@code header}, as
   * configured (none, IETF, and/or legacy).
   */
  public void headers(Policy policy, Decision decision, BiConsumer<String, String> header) {
    headers(policy, decision, header, true);
  }

  /**
   * Writes the headers of a request decided under several policies ({@code decisions.get(i)} under
   * {@code policies.get(i)}; undecided ones are skipped): IETF headers are lists, one item per
   * policy, while each legacy header holds one number, the tightest policy's.
   */
  public void headers(
      List<Policy> policies, Decisions decisions, BiConsumer<String, String> header) {
    int tightest = -1;
    for (int i = 0; i < policies.size(); i++) {
      Decision each = decisions.get(i);
      if (each != null
          && (tightest < 0 || each.remaining() < decisions.get(tightest).remaining())) {
        tightest = i;
      }
    }
    for (int i = 0; i < policies.size(); i++) {
      Decision decision = decisions.get(i);
      if (decision != null) {
        headers(policies.get(i), decision, header, i == tightest);
      }
    }
  }

  private void headers(
      Policy policy, Decision decision, BiConsumer<String, String> header, boolean legacy) {
    if (!settings.headers() && !(legacy && settings.legacyHeaders())) {
      return;
    }
    Rendered fixed = rendered(policy);
    int reported = reportedIndex(policy.limits(), decision.limit());
    long remaining = decision.isAllowed() ? decision.remaining() : 0;
    long reset;
    if (decision.isAllowed() || decision.neverPasses()) {
      reset = ceilSeconds(decision.resetAfterNanos());
    } else {
      reset = retryAfterSeconds(decision.retryAfterNanos());
    }
    if (settings.headers()) {
      header.accept("RateLimit-Policy", fixed.policyHeader);
      header.accept("RateLimit", fixed.itemPrefixes[reported] + remaining + ";t=" + reset);
    }
    if (legacy && settings.legacyHeaders()) {
      header.accept("X-RateLimit-Limit", Long.toString(fixed.quotas[reported]));
      header.accept("X-RateLimit-Remaining", Long.toString(remaining));
      header.accept("X-RateLimit-Reset", Long.toString(reset));
    }
  }

  /** Where {@link #reject} writes a rejection: the adapter's response. */
  public interface RejectionSink {
    void status(int status);

    void header(String name, String value);

    void body(String contentType, byte[] body) throws IOException;
  }

  /**
   * The whole response for a rejected {@code decision}, as data (for adapters that build a response
   * object).
   */
  public RateLimitResponse rejection(Policy policy, Decision decision) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    int[] status = new int[1];
    String[] body = new String[2];
    RejectionSink collect =
        new RejectionSink() {
          @Override
          public void status(int code) {
            status[0] = code;
          }

          @Override
          public void header(String name, String value) {
            headers.add(Map.entry(name, value));
          }

          @Override
          public void body(String contentType, byte[] bytes) {
            body[0] = contentType;
            body[1] = new String(bytes, StandardCharsets.UTF_8);
          }
        };
    try {
      reject(policy, decision, collect);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // collecting into memory does not fail
    }
    return new RateLimitResponse(status[0], headers, body[0], body[1]);
  }

  /**
   * Writes the whole response for a rejected {@code decision} to {@code sink}: status, headers,
   * then the body. The one place a rejection is rendered; the usual one, over the limit, is
   * assembled from parts rendered once per policy.
   */
  public void reject(Policy policy, Decision decision, RejectionSink sink) throws IOException {
    if (decision.isAllowed()) {
      throw new IllegalArgumentException("not a rejection: " + decision);
    }
    Decision.Outcome outcome = decision.outcome();
    boolean unavailable = outcome == Decision.Outcome.UNAVAILABLE;
    // An overload is about the server, not the client: the status of an unavailable server.
    int status =
        unavailable || outcome == Decision.Outcome.OVERLOADED
            ? settings.unavailableStatus()
            : settings.rejectionStatus();
    sink.status(status);
    // A request that can never pass gets no Retry-After: any time would be a false promise.
    String retryAfter =
        decision.neverPasses()
            ? null
            : Long.toString(retryAfterSeconds(decision.retryAfterNanos()));
    if (retryAfter != null) {
      sink.header("Retry-After", retryAfter);
    }
    sink.header("Cache-Control", "no-store");
    // No client state stands behind an outage, a missing key or an unknown plan: no RateLimit
    // headers.
    if (!unavailable
        && outcome != Decision.Outcome.MISSING_KEY
        && outcome != Decision.Outcome.UNKNOWN_PLAN) {
      headers(policy, decision, sink::header);
    }
    sink.body(
        PROBLEM_JSON,
        switch (outcome) {
          case EXCEEDS_CAPACITY ->
              problemBytes(
                  "urn:limiter:problem:exceeds-capacity",
                  TOO_MANY_REQUESTS,
                  status,
                  "The request costs more than policy '" + policy.name() + "' can ever admit.",
                  policy.name());
          case MISSING_KEY, UNKNOWN_PLAN ->
              problemBytes(
                  "urn:limiter:problem:missing-key",
                  TOO_MANY_REQUESTS,
                  status,
                  "The request has no key, or no plan it knows, under policy '"
                      + policy.name()
                      + "', which rejects such requests (on-missing-key=reject,"
                      + " on-unknown-plan=reject).",
                  policy.name());
          case UNAVAILABLE ->
              problemBytes(
                  "urn:limiter:problem:unavailable",
                  "Service Unavailable",
                  status,
                  "The rate limiter cannot decide right now; retry later.",
                  policy.name());
          case OVERLOADED ->
              problemBytes(
                  "urn:limiter:problem:overloaded",
                  "Service Unavailable",
                  status,
                  "The server is at its concurrency limit under policy '"
                      + policy.name()
                      + "' for requests of this criticality; retry after "
                      + retryAfter
                      + " s.",
                  policy.name());
          default -> limitedBody(rendered(policy), retryAfter); // LIMITED
        });
  }

  private static byte[] limitedBody(Rendered fixed, String digits) {
    byte[] body = new byte[fixed.limitedHead.length + digits.length() + fixed.limitedTail.length];
    System.arraycopy(fixed.limitedHead, 0, body, 0, fixed.limitedHead.length);
    for (int i = 0; i < digits.length(); i++) {
      body[fixed.limitedHead.length + i] = (byte) digits.charAt(i);
    }
    System.arraycopy(
        fixed.limitedTail,
        0,
        body,
        fixed.limitedHead.length + digits.length(),
        fixed.limitedTail.length);
    return body;
  }

  private static byte[] problemBytes(
      String type, String title, int status, String detail, String policy) {
    return problem(type, title, status, detail, policy).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * An RFC 9457 problem document; policy names are JSON-safe by their syntax, so nothing needs
   * escaping.
   */
  private static String problem(
      String type, String title, int status, String detail, String policy) {
    return "{\"type\":\""
        + type
        + "\",\"title\":\""
        + title
        + "\",\"status\":"
        + status
        + ",\"detail\":\""
        + detail
        + "\",\"policies\":[\""
        + policy
        + "\"]}";
  }

  /**
   * The index of {@code limit} among {@code limits}: usually the same object, else an equal one,
   * else 0.
   */
  private static int reportedIndex(List<Limit> limits, Limit limit) {
    for (int i = 0; i < limits.size(); i++) {
      if (limits.get(i) == limit) {
        return i;
      }
    }
    return Math.max(0, limits.indexOf(limit));
  }

  private static String itemName(Policy policy, int index) {
    return index == 0 ? policy.name() : policy.name() + "." + (index + 1);
  }

  private static long quota(Algorithm algorithm, Limit limit) {
    return algorithm.isBucket() ? limit.burst() : limit.permits();
  }

  private static long windowSeconds(Algorithm algorithm, Limit limit) {
    // A calendar quota's window is its unit's nominal length, whatever the policy's algorithm.
    long nanos =
        algorithm.isBucket() && !limit.isQuota()
            ? Math.multiplyExact(limit.burst(), limit.intervalNanos())
            : limit.periodNanos();
    return Math.max(1, ceilSeconds(nanos));
  }
}
