package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What {@link AllOrNothing#decideEach} decided for one request under several policies: one entry
 * per policy, in the order given. An entry is null for a policy that was not decided: it had no key
 * (skipped), or it came after the rejection. Immutable.
 *
 * <p>Either every enforced policy admitted the request ({@link #allowed()}), or the first enforced
 * rejection ended the walk ({@link #rejection()}) and the permits charged before it were given
 * back. Rejections by policies that are not enforced (dry run) do not end it; they are entries like
 * the others, and were never charged.
 */
public final class Decisions {

  private static final Decision[] NONE = new Decision[0];

  // One decision needs no array: the single-policy path allocates only this object.
  private final Decision only;
  private final Decision[] each;
  private final int rejectedAt;

  private Decisions(Decision only, Decision[] each, int rejectedAt) {
    this.only = only;
    this.each = each;
    this.rejectedAt = rejectedAt;
  }

  static Decisions ofOne(Decision decision, boolean enforced) {
    return new Decisions(
        decision, null, decision == null || decision.isAllowed() || !enforced ? -1 : 0);
  }

  static Decisions of(Decision[] each, int rejectedAt) {
    return new Decisions(null, each, rejectedAt);
  }

  static Decisions empty() {
    return new Decisions(null, NONE, -1);
  }

  /** Whether the request may proceed: no enforced policy rejected it. */
  public boolean allowed() {
    return rejectedAt < 0;
  }

  /** The enforced rejection that ended the walk, or null if the request is allowed. */
  public Decision rejection() {
    return rejectedAt < 0 ? null : get(rejectedAt);
  }

  /** The index of {@link #rejection()} among the policies, or -1. */
  public int rejectedAt() {
    return rejectedAt;
  }

  /** How many policies were given. */
  public int size() {
    return each == null ? 1 : each.length;
  }

  /** The decision of the {@code index}th policy, or null if it was not decided. */
  public Decision get(int index) {
    if (each == null) {
      if (index != 0) {
        throw new IndexOutOfBoundsException("index " + index + " out of bounds for length 1");
      }
      return only;
    }
    return each[index];
  }

  /** Every decision made, in policy order, without the policies that were not decided. */
  public List<Decision> all() {
    if (each == null) {
      return only == null ? List.of() : List.of(only);
    }
    List<Decision> all = new ArrayList<>(each.length);
    for (Decision decision : each) {
      if (decision != null) {
        all.add(decision);
      }
    }
    return Collections.unmodifiableList(all);
  }

  /** The admission with the fewest permits left (what legacy headers report), or null if none. */
  public Decision tightest() {
    Decision tightest = null;
    for (int i = 0; i < size(); i++) {
      Decision decision = get(i);
      if (decision != null
          && decision.isAllowed()
          && (tightest == null || decision.remaining() < tightest.remaining())) {
        tightest = decision;
      }
    }
    return tightest;
  }

  @Override
  public String toString() {
    return "Decisions["
        + (allowed() ? "allowed" : "rejected at " + rejectedAt)
        + ", "
        + all()
        + "]";
  }
}
