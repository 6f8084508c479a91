package dev.agentdesk.terminal.vt.internal;

/**
 * Bounded ring of the primary-screen rows that scrolled off the top, as right-trimmed text with
 * their soft-wrap flag. Every row ever logged has a sequence number; when the ring is full the
 * oldest row is dropped, so memory is bounded by capacity × columns.
 */
public final class DurableLog {
  private final String[] texts;
  private final boolean[] wrapped;
  private long next; // sequence number the next row gets; rows [next - size, next) are held
  private int size;

  public DurableLog(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("log capacity must be >= 0, got " + capacity);
    }
    texts = new String[capacity];
    wrapped = new boolean[capacity];
  }

  public int capacity() {
    return texts.length;
  }

  void append(String text, boolean isWrapped) {
    if (texts.length == 0) {
      next++;
      return;
    }
    int slot = (int) (next % texts.length);
    texts[slot] = text;
    wrapped[slot] = isWrapped;
    next++;
    if (size < texts.length) {
      size++;
    }
  }

  /** Sequence number of the oldest row still held. */
  public long first() {
    return next - size;
  }

  /** Sequence number the next logged row will get (= rows ever logged). */
  public long end() {
    return next;
  }

  public String text(long seq) {
    check(seq);
    return texts[(int) (seq % texts.length)];
  }

  public boolean wrapped(long seq) {
    check(seq);
    return wrapped[(int) (seq % texts.length)];
  }

  private void check(long seq) {
    if (seq < first() || seq >= next) {
      throw new IndexOutOfBoundsException("log row " + seq + " not held (held: " + first() + ".." + next + ")");
    }
  }
}
