package io.github.limiter.internal.admin;

import io.github.limiter.RequestView;
import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.internal.live.KeyOverride;
import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.internal.live.PolicyVersion;
import io.github.limiter.internal.log.LogText;
import io.github.limiter.internal.runtime.LimiterRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The admin API, at {@code limiter.admin.path} when {@code limiter.admin.enabled}, free of any
 * transport: the servlet (limiter-servlet) and the Jakarta REST filter (limiter-jaxrs) each hand it
 * the method, the path below the admin path, the caller and the body, and write the {@link
 * AdminReply} it returns, so that both serve one API with one guard and one audit log. JSON over
 * the live limits of the application's policies. Every call needs the container role {@code
 * limiter.admin.role} or the bearer token {@code limiter.admin.token} (compared in constant time,
 * never logged nor echoed); without either it is 401, with a wrong one 403. Every change is logged
 * with who made it, what changed and when.
 *
 * <pre>
 * GET    /policies                          each policy: policy, algorithm, version, limits, and
 *                                           what it limits (routes, sites, keys, onMissingKey)
 * PUT    /policies/NAME/limits              {"limits": "10/s burst=20"}: its next version
 * GET    /policies/NAME/overrides           the keys' overrides
 * PUT    /policies/NAME/overrides/KEY       {"kind": "block|exempt|limits", "limits": .., "ttl": "10m"}
 * DELETE /policies/NAME/overrides/KEY       removes the key's override
 * GET    /policies/NAME/keys/KEY            the key's state (remaining, reset, override), uncharged
 * GET    /policies/NAME/top-keys            the keys with the most requests and rejections
 * GET    /policies/NAME/traffic             its admitted and rejected requests per second
 * GET    /policies/NAME/trial               the latest shadow trial, running or over
 * PUT    /policies/NAME/trial               {"limits": "5/s", "period": "10m"}: starts one
 * POST   /policies/NAME/trial/apply         puts its limits in force: the policy's next version
 * DELETE /policies/NAME/trial               discards it
 * GET    /regions                           the store's region and each global policy's share
 *                                           of the budget there (docs/multi-region.md)
 * </pre>
 *
 * The operator console, a page over these routes, is at the admin path itself (see {@link
 * AdminConsole}); it holds no data, and asks the operator for the token.
 *
 * <p>Every change is also counted in {@code limiter.admin.changes{policy,action}}.
 *
 * <p>A bad value is a 400 whose {@code error} names it, and nothing changes.
 */
public final class AdminApi {

  /**
   * The {@code ServletContext} attribute under which limiter-servlet keeps the admin API it serves,
   * so that limiter-jaxrs in the same application serves no second one.
   */
  public static final String ATTRIBUTE = AdminApi.class.getName();

  private static final Logger LOG = Logger.getLogger(AdminApi.class.getName());

  private final AdminSettings settings;
  private final Supplier<LimiterRuntime> runtime;
  private final byte[] tokenDigest;

  /**
   * @param runtime the application's runtime, found on each call; null while there is none (no
   *     policy to list yet)
   */
  public AdminApi(AdminSettings settings, Supplier<LimiterRuntime> runtime) {
    this.settings = settings;
    this.runtime = runtime;
    this.tokenDigest = settings.token().map(AdminApi::digest).orElse(null);
  }

  /** {@code limiter.admin.path}: where the adapter serves this API, below its base. */
  public String path() {
    return settings.path();
  }

  /**
   * Answers one call.
   *
   * @param method the HTTP method
   * @param uri the request's path as it came, from {@code /}: where the console's page redirects
   *     to, with a trailing slash
   * @param rest the request's path below the admin path as it came (not decoded), empty or from
   *     {@code /}
   * @param caller the request, for its {@code Authorization} header, principal and roles
   * @param body the request's body, read only by the routes that take one
   */
  public AdminReply handle(
      String method, String uri, String rest, RequestView caller, InputStream body) {
    try {
      return answer(method, uri, rest, caller, body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private AdminReply answer(
      String method, String uri, String rest, RequestView request, InputStream in)
      throws IOException {
    AdminReply console = method.equals("GET") ? AdminConsole.serve(uri, rest) : null;
    if (console != null) {
      return console;
    }
    String who = who(request);
    if (who == null) {
      boolean bearer = bearer(request) != null;
      AdminReply refused =
          send(bearer ? 403 : 401, Map.of("error", bearer ? "forbidden" : "unauthorized"));
      return bearer ? refused : refused.with("WWW-Authenticate", "Bearer realm=\"limiter\"");
    }
    List<String> path = segments(rest);
    try {
      if (path.equals(List.of("policies")) && method.equals("GET")) {
        return send(200, Map.of("policies", policies()));
      } else if (path.equals(List.of("regions")) && method.equals("GET")) {
        return regions();
      } else if (path.size() == 3
          && path.get(0).equals("policies")
          && path.get(2).equals("limits")
          && method.equals("PUT")) {
        return changeLimits(in, who, path.get(1));
      } else if (path.size() == 3
          && path.get(0).equals("policies")
          && path.get(2).equals("overrides")
          && method.equals("GET")) {
        return send(200, Map.of("overrides", overrides(path.get(1))));
      } else if (path.size() == 4
          && path.get(0).equals("policies")
          && path.get(2).equals("overrides")) {
        if (method.equals("PUT")) {
          return putOverride(in, who, path.get(1), path.get(3));
        } else if (method.equals("DELETE")) {
          return removeOverride(who, path.get(1), path.get(3));
        }
        return send(405, Map.of("error", "method " + method + " not allowed here"));
      } else if (path.size() == 4
          && path.get(0).equals("policies")
          && path.get(2).equals("keys")
          && method.equals("GET")) {
        return send(200, AdminInsight.keyState(holding(path.get(1)), path.get(1), path.get(3)));
      } else if (path.size() >= 3
          && path.get(0).equals("policies")
          && List.of("top-keys", "trial", "traffic").contains(path.get(2))) {
        return insight(in, who, path, method);
      }
      return send(404, Map.of("error", "no such admin resource"));
    } catch (UnknownPolicy e) {
      return send(404, Map.of("error", e.getMessage()));
    } catch (AdminInsight.Conflict e) {
      return send(409, Map.of("error", e.getMessage()));
    } catch (IllegalArgumentException e) {
      return send(400, Map.of("error", e.getMessage()));
    } catch (RuntimeException e) {
      return send(
          503, Map.of("error", "the limits cannot be read or changed now: " + e.getMessage()));
    }
  }

  private AdminReply insight(InputStream in, String who, List<String> path, String method)
      throws IOException {
    String name = path.get(1);
    LimiterRuntime owner = holding(name);
    String route = String.join("/", path.subList(2, path.size())) + " " + method;
    switch (route) {
      case "top-keys GET" -> {
        var top = AdminInsight.topKeys(owner, name);
        if (top.isPresent()) {
          return send(200, top.get());
        }
        return send(
            404,
            Map.of(
                "error",
                "no top keys for policy '"
                    + name
                    + "': limiter.top-keys.enabled is off, or the runtime that decides it"
                    + " does not report them"));
      }
      case "traffic GET" -> {
        return send(200, AdminInsight.traffic(owner, name));
      }
      case "trial GET" -> {
        var trial = AdminInsight.trial(owner, name);
        if (trial.isPresent()) {
          return send(200, trial.get());
        }
        return send(404, Map.of("error", "policy '" + name + "' has no shadow trial"));
      }
      case "trial PUT" -> {
        Map<String, String> body = body(in);
        Map<String, Object> started =
            AdminInsight.start(owner, name, body.get("limits"), body.get("period"));
        log(
            who,
            "started a shadow trial of "
                + started.get("candidate")
                + " on policy "
                + LogText.quote(name)
                + " for "
                + LogText.quote(body.get("period")));
        count(owner, name, "trial-start");
        return send(200, started);
      }
      case "trial/apply POST" -> {
        String limits = PolicyVersion.text(AdminInsight.candidate(owner, name));
        PolicyVersion version = owner.live().policies().change(name, limits);
        AdminInsight.applied(owner, name);
        log(
            who,
            "applied the shadow trial of policy "
                + LogText.quote(name)
                + ": its limits are "
                + limits
                + ", version "
                + version.number());
        count(owner, name, "trial-apply");
        return send(200, Map.of("policy", name, "version", version.number(), "limits", limits));
      }
      case "trial DELETE" -> {
        if (!AdminInsight.discard(owner, name)) {
          return send(404, Map.of("error", "policy '" + name + "' has no shadow trial"));
        }
        log(who, "discarded the shadow trial of policy " + LogText.quote(name));
        count(owner, name, "trial-discard");
        return AdminReply.NO_CONTENT;
      }
      default -> {
        return send(405, Map.of("error", "method " + method + " not allowed here"));
      }
    }
  }

  /** Counts one change in the application's metrics. */
  private static void count(LimiterRuntime owner, String name, String action) {
    owner.recorder().adminChange(name, action);
  }

  /** Who calls: the principal in the role, "token" for the token; null if neither. */
  private String who(RequestView request) {
    if (settings.role().isPresent() && request.isUserInRole(settings.role().get())) {
      String principal = request.principal();
      return principal != null ? principal : "role";
    }
    String bearer = bearer(request);
    if (bearer != null
        && tokenDigest != null
        && MessageDigest.isEqual(digest(bearer), tokenDigest)) {
      return "token";
    }
    return null;
  }

  private static String bearer(RequestView request) {
    String authorization = request.header("Authorization");
    return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
        ? authorization.substring(7).strip()
        : null;
  }

  private List<Map<String, Object>> policies() {
    List<Map<String, Object>> policies = new ArrayList<>();
    LimiterRuntime current = runtime.get();
    if (current == null) {
      return policies;
    }
    for (PolicyVersion version : current.live().policies().versions()) {
      String name = version.policy().name();
      Map<String, Object> policy = new LinkedHashMap<>();
      policy.put("policy", name);
      policy.put("algorithm", version.policy().algorithm().configName());
      policy.put("version", version.number());
      policy.put("limits", PolicyVersion.text(version.policy()));
      policy.put("shared", current.live().policies().shared());
      policy.putAll(AdminInsight.scope(current, name));
      policies.add(policy);
    }
    return policies;
  }

  private AdminReply regions() {
    LimiterRuntime current = runtime.get();
    Optional<Map<String, Object>> regions =
        current == null ? Optional.empty() : AdminRegions.json(current);
    return regions.isPresent()
        ? send(200, regions.get())
        : send(
            404,
            Map.of(
                "error", "no global policies: the store runs in no region (limiter.redis.region)"));
  }

  private AdminReply changeLimits(InputStream in, String who, String name) throws IOException {
    String limits = body(in).get("limits");
    if (limits == null) {
      throw new IllegalArgumentException("limits: required, such as {\"limits\": \"10/s\"}");
    }
    LimiterRuntime owner = holding(name);
    PolicyVersion version = owner.live().policies().change(name, limits);
    String text = PolicyVersion.text(version.policy());
    log(
        who,
        "changed the limits of policy "
            + LogText.quote(name)
            + " to "
            + text
            + ", version "
            + version.number());
    count(owner, name, "limits");
    return send(200, Map.of("policy", name, "version", version.number(), "limits", limits));
  }

  private List<Map<String, Object>> overrides(String name) {
    List<Map<String, Object>> list = new ArrayList<>();
    LiveLimits live = holding(name).live();
    long now = live.overrides().clock().nanos();
    live.overrides().of(name).forEach((key, o) -> list.add(AdminInsight.override(key, o, now)));
    return list;
  }

  private AdminReply putOverride(InputStream in, String who, String name, String key)
      throws IOException {
    Map<String, String> body = body(in);
    String kindText = body.get("kind");
    KeyOverride.Kind kind;
    try {
      kind = KeyOverride.Kind.fromConfigName(kindText);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("kind: " + e.getMessage());
    }
    Duration ttl = null;
    String ttlText = body.get("ttl");
    if (ttlText != null && !ttlText.isBlank()) {
      try {
        ttl = io.github.limiter.Limit.parseDuration(ttlText);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("ttl: " + e.getMessage());
      }
    }
    LimiterRuntime owner = holding(name);
    KeyOverride override = owner.live().overrides().set(name, key, kind, body.get("limits"), ttl);
    log(
        who,
        "set the override of key "
            + LogText.quote(key)
            + " of policy "
            + LogText.quote(name)
            + " to "
            + kind.configName()
            + (kind == KeyOverride.Kind.LIMITS ? " " + PolicyVersion.text(override.policy()) : "")
            + (ttl != null ? " for " + ttl : ""));
    count(owner, name, "override-" + kind.configName());
    return send(200, Map.of("policy", name, "key", key, "kind", kind.configName()));
  }

  private AdminReply removeOverride(String who, String name, String key) {
    LimiterRuntime owner = holding(name);
    if (!owner.live().overrides().remove(name, key)) {
      return send(
          404, Map.of("error", "key '" + key + "' of policy '" + name + "' has no override"));
    }
    log(
        who,
        "removed the override of key " + LogText.quote(key) + " of policy " + LogText.quote(name));
    count(owner, name, "override-remove");
    return AdminReply.NO_CONTENT;
  }

  /**
   * The application's runtime, which holds policy {@code name}.
   *
   * @throws UnknownPolicy naming the policies there are, if it has none of that name
   */
  private LimiterRuntime holding(String name) {
    LimiterRuntime current = runtime.get();
    if (current == null || current.live().policies().version(name).isEmpty()) {
      Set<String> known = new TreeSet<>();
      if (current != null) {
        current.live().policies().versions().forEach(v -> known.add(v.policy().name()));
      }
      throw new UnknownPolicy("no policy named '" + name + "'; the policies are " + known);
    }
    return current;
  }

  private static Map<String, String> body(InputStream in) throws IOException {
    byte[] bytes = in == null ? new byte[0] : in.readNBytes(8193);
    if (bytes.length > 8192) {
      throw new IllegalArgumentException("body: at most 8192 bytes");
    }
    return Json.readObject(new String(bytes, StandardCharsets.UTF_8));
  }

  /** Logs a change: {@code what} holds every value a caller chose through {@link LogText}. */
  private static void log(String who, String what) {
    LOG.info("limiter admin: " + LogText.escape(who) + " " + what + " at " + Instant.now());
  }

  /** The path below the admin path, in decoded segments: a key may hold an encoded '/'. */
  private static List<String> segments(String rest) {
    List<String> segments = new ArrayList<>();
    for (String segment : rest.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8));
      }
    }
    return segments;
  }

  private static AdminReply send(int status, Object body) {
    return AdminReply.json(status, Json.write(body));
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** A policy that no adapter holds: 404. */
  private static final class UnknownPolicy extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownPolicy(String message) {
      super(message, null, false, false);
    }
  }
}
