package io.github.limiter.internal.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The policies already charged for the request this thread is serving, so that a request passing
 * both the servlet filter and a {@code @Limited} interceptor under the same policy counts once. The
 * filter's {@link io.github.limiter.internal.admission.RequestFrame} opens a scope while it is
 * entered; the interceptor's admission skips the policies found in it.
 *
 * <p>Opening a scope allocates nothing once the thread has opened one before: each thread keeps one
 * small stack of the collections it was given (not copies of them), and one reusable scope object
 * per nesting level. Scopes must be closed on the thread that opened them, innermost first
 * (try-with-resources does both); closing a scope also closes any left open inside it.
 */
public final class ChargedPolicies {

  private static final ThreadLocal<Stack> CHARGED = ThreadLocal.withInitial(Stack::new);

  private ChargedPolicies() {}

  /**
   * A scope in which {@code policies} count as charged; closing it restores the outer scope. A
   * collection is kept, not copied (it must not change while the scope is open); another iterable
   * is copied.
   */
  public static Scope open(Iterable<String> policies) {
    Collection<?> kept;
    if (policies instanceof Collection<?> collection) {
      kept = collection;
    } else {
      List<String> copy = new ArrayList<>();
      policies.forEach(copy::add);
      kept = copy;
    }
    return CHARGED.get().push(kept);
  }

  /** Whether {@code policy} was charged for the current request. */
  public static boolean contains(String policy) {
    Stack stack = CHARGED.get();
    for (int i = stack.depth - 1; i >= 0; i--) {
      if (stack.frames[i].contains(policy)) {
        return true;
      }
    }
    return false;
  }

  /** Closes without checked exceptions. */
  @FunctionalInterface
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  /** One thread's open scopes. */
  private static final class Stack {
    private Collection<?>[] frames = new Collection<?>[2];
    private Level[] levels = new Level[2];
    private int depth;

    Scope push(Collection<?> policies) {
      if (depth == frames.length) {
        frames = Arrays.copyOf(frames, depth * 2);
        levels = Arrays.copyOf(levels, depth * 2);
      }
      frames[depth] = policies;
      Level level = levels[depth];
      if (level == null) {
        level = new Level(this, depth);
        levels[depth] = level;
      }
      depth++;
      return level;
    }
  }

  /** The scope of one nesting level: closing it pops it and whatever is above it. */
  private record Level(Stack stack, int index) implements Scope {
    @Override
    public void close() {
      if (stack.depth > index) {
        for (int i = index; i < stack.depth; i++) {
          stack.frames[i] = null; // do not pin a request's collection after it ends
        }
        stack.depth = index;
      }
    }
  }
}
