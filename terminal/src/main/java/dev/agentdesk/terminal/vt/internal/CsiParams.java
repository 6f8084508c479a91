package dev.agentdesk.terminal.vt.internal;

/**
 * The parameters of one CSI sequence, reused by the parser for every sequence (no allocation per
 * sequence). Values are clamped to {@link #MAX_VALUE}; at most {@link #MAX_PARAMS} are kept and
 * the rest are dropped.
 */
public final class CsiParams {
  public static final int MAX_PARAMS = 32;
  public static final int MAX_VALUE = 65535;

  private final int[] values = new int[MAX_PARAMS];
  /** Bit i set: parameter i was separated from i-1 by ':' (an SGR sub-parameter). */
  private long subParams;
  private int count;
  private int prefix;
  private int intermediates;

  void reset() {
    count = 0;
    subParams = 0;
    prefix = 0;
    intermediates = 0;
  }

  /** Private marker ('?', '>', '<', '=') or 0. */
  public int prefix() {
    return prefix;
  }

  /** Intermediate bytes packed like {@link ParserHandler#escDispatch}; 0 when none. */
  public int intermediates() {
    return intermediates;
  }

  public int count() {
    return count;
  }

  /** Parameter {@code i}, or {@code fallback} when it is absent or 0 (the VT default rule). */
  public int get(int i, int fallback) {
    return i < count && values[i] != 0 ? values[i] : fallback;
  }

  /** Raw parameter {@code i} (0 when absent). */
  public int raw(int i) {
    return i < count ? values[i] : 0;
  }

  /** True when parameter {@code i} was introduced by ':' rather than ';'. */
  public boolean isSub(int i) {
    return i < MAX_PARAMS && (subParams & (1L << i)) != 0;
  }

  void setPrefix(int p) {
    prefix = p;
  }

  boolean addIntermediate(int b) {
    if ((intermediates & 0xff00) != 0) {
      return false;
    }
    intermediates = (intermediates << 8) | b;
    return true;
  }

  /** Starts a new parameter; {@code sub} when it follows ':'. */
  void next(boolean sub) {
    if (count == 0) {
      count = 1; // "CSI ;5H": the empty first parameter still counts
      values[0] = 0;
    }
    if (count < MAX_PARAMS) {
      values[count] = 0;
      if (sub) {
        subParams |= 1L << count;
      }
      count++;
    } else {
      count = MAX_PARAMS + 1; // overflow marker: further digits are dropped
    }
  }

  void digit(int d) {
    if (count == 0) {
      count = 1;
      values[0] = 0;
    }
    if (count > MAX_PARAMS) {
      return;
    }
    int i = count - 1;
    int v = values[i] * 10 + d;
    values[i] = Math.min(v, MAX_VALUE);
  }

  void finish() {
    if (count > MAX_PARAMS) {
      count = MAX_PARAMS;
    }
  }
}
