package io.github.limiter.internal.insight;

import io.github.limiter.Limiter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Space-Saving heavy-hitters sketch (Metwally, Agrawal, El Abbadi, 2005): counts of at most
 * {@code capacity} keys, whatever the number of keys seen. A key not counted yet takes the slot of
 * the smallest count and inherits it as its possible error, so a count is an upper bound and {@code
 * count - error} a lower one; every key seen more than {@code total / capacity} times is counted.
 *
 * <p>A key longer than {@link Limiter#MAX_KEY_LENGTH} is counted by its first that many characters
 * and an ellipsis, so that the sketch's memory is bounded by its capacity alone.
 *
 * <p>The counted keys sit in a min-heap on their counts, so an update is a hash lookup and a heap
 * step (O(log capacity)). Not thread-safe: its owner holds one lock around each use, so that an
 * update takes one lock, with the owner's own bookkeeping.
 */
final class SpaceSaving {

  private final int capacity;
  private final String[] keys;
  private final long[] counts;
  private final long[] errors;

  /** Heap order of the slots, the smallest count first. */
  private final int[] heap;

  /** Each slot's place in {@link #heap}. */
  private final int[] place;

  /** The slot of each counted key: never more than {@code capacity} entries. */
  private final Map<String, Integer> slots;

  private int size;
  private long total;

  SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
    this.keys = new String[capacity];
    this.counts = new long[capacity];
    this.errors = new long[capacity];
    this.heap = new int[capacity];
    this.place = new int[capacity];
    this.slots = new HashMap<>(capacity * 2);
  }

  /** The most keys counted at once. */
  int capacity() {
    return capacity;
  }

  /** How many keys are counted now: never above {@link #capacity()}. */
  int size() {
    return size;
  }

  /** The weight of everything added since the last {@link #clear()}. */
  long total() {
    return total;
  }

  /** Counts {@code weight} more for {@code key}. */
  void add(String key, long weight) {
    String shown =
        key.length() <= Limiter.MAX_KEY_LENGTH
            ? key
            : key.substring(0, Limiter.MAX_KEY_LENGTH) + "\u2026";
    addShown(shown, weight);
  }

  private void addShown(String key, long weight) {
    total += weight;
    Integer slot = slots.get(key);
    if (slot != null) {
      counts[slot] += weight;
      down(place[slot]);
      return;
    }
    int s;
    long floor;
    if (size < capacity) {
      s = size;
      heap[size] = s;
      place[s] = size;
      size++;
      floor = 0;
    } else {
      s = heap[0]; // the smallest count gives up its slot, and is the newcomer's possible error
      slots.remove(keys[s]);
      floor = counts[s];
    }
    keys[s] = key;
    counts[s] = floor + weight;
    errors[s] = floor;
    slots.put(key, s);
    if (floor == 0) {
      up(place[s]);
    } else {
      down(place[s]);
    }
  }

  /** Forgets every key. */
  void clear() {
    Arrays.fill(keys, 0, size, null);
    slots.clear();
    size = 0;
    total = 0;
  }

  /**
   * The smallest count when every slot is taken (what a key not counted may have had at most), or
   * 0.
   */
  long floor() {
    return size < capacity ? 0 : counts[heap[0]];
  }

  /** Every counted key, the largest count first. */
  List<KeyCount> counted() {
    List<KeyCount> all = new ArrayList<>(size);
    for (int s = 0; s < size; s++) {
      all.add(new KeyCount(keys[s], counts[s], errors[s]));
    }
    all.sort(KeyCount.LARGEST_FIRST);
    return all;
  }

  /** The {@code n} keys with the largest counts, the largest first. */
  List<KeyCount> top(int n) {
    List<KeyCount> all = counted();
    return List.copyOf(all.subList(0, Math.min(n, all.size())));
  }

  private void up(int i) {
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (counts[heap[parent]] <= counts[heap[i]]) {
        return;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void down(int i) {
    while (true) {
      int left = 2 * i + 1;
      if (left >= size) {
        return;
      }
      int right = left + 1;
      int least = right < size && counts[heap[right]] < counts[heap[left]] ? right : left;
      if (counts[heap[i]] <= counts[heap[least]]) {
        return;
      }
      swap(i, least);
      i = least;
    }
  }

  private void swap(int i, int j) {
    int a = heap[i];
    int b = heap[j];
    heap[i] = b;
    heap[j] = a;
    place[b] = i;
    place[a] = j;
  }
}
