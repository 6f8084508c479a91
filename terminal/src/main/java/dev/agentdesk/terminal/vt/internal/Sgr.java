package dev.agentdesk.terminal.vt.internal;

/**
 * SGR (CSI … m): rendition flags and colours — the 8/16 ANSI colours, the 256-colour palette and
 * 24-bit colour, in both the ';' form (38;5;n, 38;2;r;g;b) and the ':' sub-parameter form
 * (38:5:n, 38:2::r:g:b, 38:2:r:g:b).
 */
final class Sgr {
  private Sgr() {}

  static void apply(Screen s, CsiParams p) {
    long st = s.style;
    int count = Math.max(1, p.count());
    for (int i = 0; i < count; i++) {
      int v = p.raw(i);
      if (v >= 30 && v <= 37) {
        st = Style.withFg(st, Style.color(Style.INDEXED, v - 30));
      } else if (v >= 40 && v <= 47) {
        st = Style.withBg(st, Style.color(Style.INDEXED, v - 40));
      } else if (v >= 90 && v <= 97) {
        st = Style.withFg(st, Style.color(Style.INDEXED, v - 90 + 8));
      } else if (v >= 100 && v <= 107) {
        st = Style.withBg(st, Style.color(Style.INDEXED, v - 100 + 8));
      } else if (v == 38 || v == 48 || v == 58) {
        long read = extendedColor(p, i);
        int color = (int) read;
        if (color >= 0) {
          if (v == 38) {
            st = Style.withFg(st, color);
          } else if (v == 48) {
            st = Style.withBg(st, color);
          }
          // 58 (underline colour) is parsed so its arguments are not misread as SGR codes.
        }
        i += (int) (read >>> 32);
      } else {
        st = simple(st, v);
      }
    }
    s.style = st;
  }

  private static long simple(long st, int v) {
    return switch (v) {
      case 0 -> st & Style.PROTECTED_BIT; // DECSCA is not SGR state
      case 1 -> Style.withFlag(st, Style.BOLD, true);
      case 2 -> Style.withFlag(st, Style.DIM, true);
      case 3 -> Style.withFlag(st, Style.ITALIC, true);
      case 4, 21 -> Style.withFlag(st, Style.UNDERLINE, true);
      case 5, 6 -> Style.withFlag(st, Style.BLINK, true);
      case 7 -> Style.withFlag(st, Style.INVERSE, true);
      case 8 -> Style.withFlag(st, Style.INVISIBLE, true);
      case 9 -> Style.withFlag(st, Style.STRIKETHROUGH, true);
      case 22 -> Style.withFlag(Style.withFlag(st, Style.BOLD, false), Style.DIM, false);
      case 23 -> Style.withFlag(st, Style.ITALIC, false);
      case 24 -> Style.withFlag(st, Style.UNDERLINE, false);
      case 25 -> Style.withFlag(st, Style.BLINK, false);
      case 27 -> Style.withFlag(st, Style.INVERSE, false);
      case 28 -> Style.withFlag(st, Style.INVISIBLE, false);
      case 29 -> Style.withFlag(st, Style.STRIKETHROUGH, false);
      case 39 -> Style.withFg(st, 0);
      case 49 -> Style.withBg(st, 0);
      case 53 -> Style.withFlag(st, Style.OVERLINE, true);
      case 55 -> Style.withFlag(st, Style.OVERLINE, false);
      default -> st;
    };
  }

  /**
   * Reads the colour that starts at parameter {@code i} (38/48/58): the low 32 bits are the colour
   * (-1 when malformed), the high 32 bits how many parameters after {@code i} it used. Packed in
   * a long so that SGR-heavy output allocates nothing.
   */
  private static long extendedColor(CsiParams p, int i) {
    int color = -1;
    int used;
    boolean sub = p.isSub(i + 1);
    int kind = p.raw(i + 1);
    if (sub) {
      // Colon form: everything up to the next ';' belongs to this colour.
      int j = i + 1;
      while (j + 1 < p.count() && p.isSub(j + 1)) {
        j++;
      }
      int n = j - i; // sub-parameters, the kind included
      if (kind == 5 && n >= 2) {
        color = Style.color(Style.INDEXED, Math.min(255, p.raw(i + 2)));
      } else if (kind == 2 && n >= 4) {
        int base = n >= 5 ? i + 3 : i + 2; // 38:2:<colour space>:r:g:b or 38:2:r:g:b
        color = rgb(p.raw(base), p.raw(base + 1), p.raw(base + 2));
      }
      used = n;
    } else if (kind == 5) {
      if (i + 2 < p.count()) {
        color = Style.color(Style.INDEXED, Math.min(255, p.raw(i + 2)));
      }
      used = 2;
    } else if (kind == 2) {
      if (i + 4 < p.count()) {
        color = rgb(p.raw(i + 2), p.raw(i + 3), p.raw(i + 4));
      }
      used = 4;
    } else {
      used = 1;
    }
    return ((long) used << 32) | (color & 0xffffffffL);
  }

  private static int rgb(int r, int g, int b) {
    return Style.color(Style.RGB, (Math.min(255, r) << 16) | (Math.min(255, g) << 8) | Math.min(255, b));
  }
}
