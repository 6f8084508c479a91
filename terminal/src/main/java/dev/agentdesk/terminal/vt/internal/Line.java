package dev.agentdesk.terminal.vt.internal;

import java.util.Arrays;

/**
 * One row of cells in primitive arrays: the code point of each cell ({@link #EMPTY} for a never
 * written or erased cell, {@link #WIDE_TAIL} for the right half of a double-width character) and
 * its packed {@link Style}. Cells that carry combining marks keep their whole grapheme in a sparse
 * side array, allocated only for rows that have one.
 */
public final class Line {
  public static final int EMPTY = 0;
  public static final int WIDE_TAIL = -1;
  /** Combining marks kept per cell; more are dropped so a stream of marks cannot grow memory. */
  static final int MAX_CLUSTER_CHARS = 32;

  int[] cps;
  long[] styles;
  String[] clusters;
  /** This row continues the row above it (it was reached by autowrap). */
  boolean wrapped;
  /**
   * High-water mark: every cell at or past it is blank with the default style. Lets {@link
   * #clear} touch only the part of the row that was used — most rows are shorter than the screen.
   */
  int used;

  Line(int cols) {
    cps = new int[cols];
    styles = new long[cols];
  }

  int cols() {
    return cps.length;
  }

  void clear(long fill) {
    if (fill == 0) {
      Arrays.fill(cps, 0, used, EMPTY);
      Arrays.fill(styles, 0, used, 0L);
      used = 0;
    } else {
      Arrays.fill(cps, EMPTY);
      Arrays.fill(styles, fill);
      used = cps.length;
    }
    clusters = null;
    wrapped = false;
  }

  /** Erases cells {@code [from, to)}, mending a double-width character cut at either edge. */
  void erase(int from, int to, long fill) {
    int n = cps.length;
    from = Math.max(0, from);
    to = Math.min(n, to);
    if (from >= to) {
      return;
    }
    if (cps[from] == WIDE_TAIL && from > 0) {
      cps[from - 1] = EMPTY;
      dropCluster(from - 1);
    }
    if (to < n && cps[to] == WIDE_TAIL) {
      cps[to] = EMPTY;
    }
    Arrays.fill(cps, from, to, EMPTY);
    Arrays.fill(styles, from, to, fill);
    if (clusters != null) {
      Arrays.fill(clusters, from, to, null);
    }
    if (fill != 0 && to > used) {
      used = to;
    }
  }

  /**
   * Erases the cells of {@code [from, to)} that are not DECSCA-protected. Both halves of a wide
   * character carry its style, so one is erased exactly when the other is.
   */
  void eraseUnprotected(int from, int to, long fill) {
    from = Math.max(0, from);
    to = Math.min(cps.length, to);
    for (int c = from; c < to; c++) {
      if (!Style.isProtected(styles[c])) {
        erase(c, c + 1, fill);
      }
    }
  }

  /** Writes a width-1 or width-2 character at {@code col}; the caller made sure it fits. */
  void put(int col, int cp, int width, long style) {
    int n = cps.length;
    if (cps[col] == WIDE_TAIL && col > 0) {
      cps[col - 1] = EMPTY; // overwriting the right half of a wide char destroys its left half
      dropCluster(col - 1);
    }
    int after = col + width;
    if (after < n && cps[after] == WIDE_TAIL) {
      cps[after] = EMPTY; // overwriting the left half of a wide char destroys its right half
    }
    cps[col] = cp;
    styles[col] = style;
    dropCluster(col);
    if (after > used) {
      used = Math.min(after, n);
    }
    if (width == 2) {
      if (col + 1 < n && cps[col + 1] != WIDE_TAIL) {
        dropCluster(col + 1);
      }
      cps[col + 1] = WIDE_TAIL;
      styles[col + 1] = style;
    }
  }

  /** Appends a zero-width code point (combining mark, joiner, variation selector) to a cell. */
  void combine(int col, int mark) {
    if (cps[col] == EMPTY) {
      return;
    }
    if (clusters == null) {
      clusters = new String[cps.length];
    }
    String base = clusters[col] != null ? clusters[col] : new String(Character.toChars(cps[col]));
    if (base.length() + 2 <= MAX_CLUSTER_CHARS) {
      clusters[col] = base + new String(Character.toChars(mark));
    }
  }

  private void dropCluster(int col) {
    if (clusters != null) {
      clusters[col] = null;
    }
  }

  /** Inserts {@code count} blank cells at {@code col}, pushing the rest right (lost past the edge). */
  void insertCells(int col, int count, long fill) {
    int n = cps.length;
    count = Math.min(count, n - col);
    if (count <= 0) {
      return;
    }
    if (cps[col] == WIDE_TAIL && col > 0) {
      cps[col - 1] = EMPTY;
      cps[col] = EMPTY;
    }
    System.arraycopy(cps, col, cps, col + count, n - col - count);
    System.arraycopy(styles, col, styles, col + count, n - col - count);
    if (clusters != null) {
      System.arraycopy(clusters, col, clusters, col + count, n - col - count);
    }
    Arrays.fill(cps, col, col + count, EMPTY);
    Arrays.fill(styles, col, col + count, fill);
    if (clusters != null) {
      Arrays.fill(clusters, col, col + count, null);
    }
    used = n; // content moved right; not worth tracking exactly
    fixCutWideAtEnd();
  }

  /** Deletes {@code count} cells at {@code col}, pulling the rest left and blanking the right end. */
  void deleteCells(int col, int count, long fill) {
    int n = cps.length;
    count = Math.min(count, n - col);
    if (count <= 0) {
      return;
    }
    if (cps[col] == WIDE_TAIL && col > 0) {
      cps[col - 1] = EMPTY;
    }
    System.arraycopy(cps, col + count, cps, col, n - col - count);
    System.arraycopy(styles, col + count, styles, col, n - col - count);
    if (clusters != null) {
      System.arraycopy(clusters, col + count, clusters, col, n - col - count);
    }
    Arrays.fill(cps, n - count, n, EMPTY);
    Arrays.fill(styles, n - count, n, fill);
    if (fill != 0) {
      used = n;
    }
    if (clusters != null) {
      Arrays.fill(clusters, n - count, n, null);
    }
    if (cps[col] == WIDE_TAIL) {
      cps[col] = EMPTY; // the left half was deleted
    }
  }

  private void fixCutWideAtEnd() {
    int last = cps.length - 1;
    if (last >= 0 && cps[last] != WIDE_TAIL && cps[last] != EMPTY && isWideHead(last)) {
      cps[last] = EMPTY; // a wide char pushed half off the edge disappears
    }
  }

  private boolean isWideHead(int col) {
    // After a shift the tail may have fallen off the end: the head alone is the last cell.
    return col + 1 >= cps.length && CharWidth.of(cps[col]) == 2;
  }

  /** Copies every cell of {@code other} (same width or not) into this row. */
  void copyFrom(Line other) {
    int n = Math.min(cps.length, other.cps.length);
    System.arraycopy(other.cps, 0, cps, 0, n);
    System.arraycopy(other.styles, 0, styles, 0, n);
    clusters = other.clusters == null ? null : Arrays.copyOf(other.clusters, cps.length);
    wrapped = other.wrapped;
    used = cps.length;
  }

  /** Changes the width; cells past the new width are lost, new cells are blank. */
  void resize(int cols) {
    int old = cps.length;
    cps = Arrays.copyOf(cps, cols);
    styles = Arrays.copyOf(styles, cols);
    if (clusters != null) {
      clusters = Arrays.copyOf(clusters, cols);
    }
    used = Math.min(used, cols);
    if (cols < old && cols > 0 && cps[cols - 1] != WIDE_TAIL && cps[cols - 1] != EMPTY
        && CharWidth.of(cps[cols - 1]) == 2) {
      cps[cols - 1] = EMPTY;
    }
  }

  /** Index just past the last cell that holds a visible character (trailing blanks excluded). */
  int contentLength() {
    int i = cps.length;
    while (i > 0) {
      int cp = cps[i - 1];
      if (cp != EMPTY && cp != ' ' && cp != WIDE_TAIL) {
        return i;
      }
      if (cp == WIDE_TAIL) {
        return i;
      }
      i--;
    }
    return 0;
  }

  /** Index just past the last cell ever written (blanks written as spaces count), for reflow. */
  int usedLength() {
    int i = cps.length;
    while (i > 0 && cps[i - 1] == EMPTY) {
      i--;
    }
    return i;
  }

  /** Appends the row's text, right-trimmed, to {@code sb}. */
  void appendText(StringBuilder sb) {
    appendText(sb, 0, contentLength());
  }

  void appendText(StringBuilder sb, int from, int to) {
    for (int i = from; i < to; i++) {
      int cp = cps[i];
      if (cp == WIDE_TAIL) {
        continue;
      }
      if (cp == EMPTY) {
        sb.append(' ');
      } else if (clusters != null && clusters[i] != null) {
        sb.append(clusters[i]);
      } else if (cp < 0x10000) {
        sb.append((char) cp);
      } else {
        sb.appendCodePoint(cp);
      }
    }
  }

  String text() {
    StringBuilder sb = new StringBuilder(cps.length);
    appendText(sb);
    return sb.toString();
  }

  /**
   * The right-trimmed text, made without a StringBuilder when every cell is Latin-1 (the common
   * case for log rows): one pass into {@code scratch}, one copy into a compact String.
   */
  String text(byte[] scratch) {
    int n = contentLength();
    if (clusters == null && n <= scratch.length) {
      int[] c = cps;
      int i = 0;
      for (; i < n; i++) {
        int cp = c[i];
        if (cp > 0xff || cp < 0) {
          break;
        }
        scratch[i] = cp == EMPTY ? (byte) ' ' : (byte) cp;
      }
      if (i == n) {
        return new String(scratch, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
      }
    }
    StringBuilder sb = new StringBuilder(n);
    appendText(sb, 0, n);
    return sb.toString();
  }

  /**
   * Text of the first {@code n} code points of a copied row (no clusters): blanks become spaces,
   * wide tails vanish.
   */
  static String textOf(int[] cps, int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      int cp = cps[i];
      if (cp == WIDE_TAIL) {
        continue;
      }
      if (cp == EMPTY) {
        sb.append(' ');
      } else {
        sb.appendCodePoint(cp);
      }
    }
    return sb.toString();
  }

  /** The text of one cell ("" for the right half of a wide char, " " for a blank). */
  String cellText(int col) {
    int cp = cps[col];
    if (cp == WIDE_TAIL) {
      return "";
    }
    if (cp == EMPTY) {
      return " ";
    }
    if (clusters != null && clusters[col] != null) {
      return clusters[col];
    }
    return new String(Character.toChars(cp));
  }
}
