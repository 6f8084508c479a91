package dev.agentdesk.terminal.vt.internal;

/**
 * Bounded ring of the primary-screen rows that scrolled off the top, with their soft-wrap flag.
 * Every row ever logged has a sequence number; when the ring is full the oldest row is dropped,
 * so memory is bounded by capacity × columns.
 *
 * <p>A row is stored as a copy of its code points and turned into text only when someone reads
 * it: most rows of a fast stream are overwritten in the ring before anyone asks, and copying an
 * {@code int[]} is several times cheaper than building a String. Rows with combining marks are
 * stored as text at once.
 *
 * <p>A full ring copies a new row into the array of the row it drops when that array is long
 * enough. A row lives for {@code capacity} rows, long enough for the collector to move it to the
 * old generation, where a new array per row would pile up as garbage and grow the heap with the
 * length of the stream (gigabytes for a gigabyte streamed); reused, the ring's memory stays put.
 */
public final class DurableLog {
  /** Per slot: a String, or an int[] whose first {@code lengths[slot]} code points are still to become one. */
  private final Object[] rows;
  private final int[] lengths;
  private final boolean[] wrapped;
  private long next; // sequence number the next row gets; rows [next - size, next) are held
  private int size;

  public DurableLog(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("log capacity must be >= 0, got " + capacity);
    }
    rows = new Object[capacity];
    lengths = new int[capacity];
    wrapped = new boolean[capacity];
  }

  public int capacity() {
    return rows.length;
  }

  /** Logs {@code line}'s current content (right-trimmed). */
  void append(Line line) {
    if (rows.length == 0) {
      next++;
      return;
    }
    int slot = (int) (next % rows.length);
    if (line.clusters == null) {
      int n = line.contentLength();
      int[] into = rows[slot] instanceof int[] old && old.length >= n ? old : new int[n];
      System.arraycopy(line.cps, 0, into, 0, n);
      rows[slot] = into;
      lengths[slot] = n;
    } else {
      rows[slot] = line.text();
    }
    wrapped[slot] = line.wrapped;
    next++;
    if (size < rows.length) {
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
    int slot = (int) (seq % rows.length);
    Object row = rows[slot];
    if (row instanceof String s) {
      return s;
    }
    String s = Line.textOf((int[]) row, lengths[slot]);
    rows[slot] = s;
    return s;
  }

  public boolean wrapped(long seq) {
    check(seq);
    return wrapped[(int) (seq % rows.length)];
  }

  private void check(long seq) {
    if (seq < first() || seq >= next) {
      throw new IndexOutOfBoundsException("log row " + seq + " not held (held: " + first() + ".." + next + ")");
    }
  }
}
