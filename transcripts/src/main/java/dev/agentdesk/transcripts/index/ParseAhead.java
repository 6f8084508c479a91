package dev.agentdesk.transcripts.index;

import java.util.ArrayDeque;

/**
 * The import's parse-ahead queue, bounded by the source bytes its items hold rather than by their
 * number: {@link #put} waits while the items would exceed the limit, except that an item larger
 * than the limit still goes when the queue is empty (a huge line is never stuck).
 */
final class ParseAhead<T> {
  private record Item<T>(T value, long bytes) {}

  private final ArrayDeque<Item<T>> items = new ArrayDeque<>();
  private final long limit;
  private long bytes;

  ParseAhead(long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
    this.limit = limit;
  }

  /** Adds an item that holds {@code size} bytes, waiting until it fits. */
  synchronized void put(T value, long size) throws InterruptedException {
    while (!items.isEmpty() && bytes + size > limit) {
      wait();
    }
    items.add(new Item<>(value, size));
    bytes += size;
    notifyAll();
  }

  /** Takes the oldest item, waiting for one. */
  synchronized T take() throws InterruptedException {
    while (items.isEmpty()) {
      wait();
    }
    Item<T> item = items.poll();
    bytes -= item.bytes();
    notifyAll();
    return item.value();
  }

  /** The bytes the queued items hold. */
  synchronized long bytes() {
    return bytes;
  }
}
