package io.github.limiter.internal.admin;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the admin API answers, for an adapter to write as it is: a status, headers (every reply says
 * {@code Cache-Control: no-store}), and a body of {@code contentType}, or none.
 *
 * @param contentType with its charset; null with no body
 * @param body empty with no body
 */
public record AdminReply(int status, Map<String, String> headers, String contentType, byte[] body) {

  static final AdminReply NO_CONTENT = new AdminReply(204, Map.of(), null, new byte[0]);

  public AdminReply {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("Cache-Control", "no-store");
    all.putAll(headers);
    headers = Map.copyOf(all);
  }

  static AdminReply json(int status, String json) {
    return new AdminReply(
        status, Map.of(), "application/json;charset=UTF-8", json.getBytes(StandardCharsets.UTF_8));
  }

  /** This reply with one more header. */
  AdminReply with(String header, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(header, value);
    return new AdminReply(status, more, contentType, body);
  }
}
