package io.github.limiter.internal.insight;

import java.time.Duration;
import java.util.List;

/**
 * One policy's top keys at one moment, for the admin API.
 *
 * @param policy the policy's name
 * @param covered how much recent time the lists cover: the current window and the one before it
 * @param requests the requests counted in that time, of every key
 * @param rejections the rejections counted in that time (a dry-run policy's would-be rejections)
 * @param byRequests the keys with the most requests, the most first
 * @param byRejections the keys with the most rejections, the most first
 */
public record TopKeysView(
    String policy,
    Duration covered,
    long requests,
    long rejections,
    List<KeyCount> byRequests,
    List<KeyCount> byRejections) {

  public TopKeysView {
    byRequests = List.copyOf(byRequests);
    byRejections = List.copyOf(byRejections);
  }
}
