package dev.agentdesk.terminal.vt.internal;

/**
 * Byte-level parser: decodes UTF-8 (state kept across chunks, invalid bytes become U+FFFD the way
 * the WHATWG decoder does it) and runs the DEC/ANSI escape-sequence state machine over the decoded
 * code points, telling a {@link ParserHandler} what it found. It never throws on any input and
 * allocates nothing per byte: runs of printable ASCII are handed over as slices of the input.
 *
 * <p>States follow the classic VT500 parser model: ground, escape, escape-intermediate, CSI
 * entry/param/intermediate/ignore, OSC string, and one "string to ignore" state shared by DCS,
 * SOS, PM and APC, whose payloads are consumed until ST (ESC \ or 0x9C), CAN or SUB.
 */
public final class VtParser {
  /** OSC payloads longer than this are cut; the rest of the string is still consumed. */
  public static final int MAX_OSC_LENGTH = 64 * 1024;
  /**
   * Bytes of an unfinished sequence kept for {@link #pendingBytes()}; a longer one keeps its
   * beginning, which is what decides the state another parser is put in.
   */
  public static final int MAX_PENDING = 8 * 1024;

  private static final int GROUND = 0;
  private static final int ESCAPE = 1;
  private static final int ESCAPE_INTERMEDIATE = 2;
  private static final int CSI_ENTRY = 3;
  private static final int CSI_PARAM = 4;
  private static final int CSI_INTERMEDIATE = 5;
  private static final int CSI_IGNORE = 6;
  private static final int OSC_STRING = 7;
  private static final int IGNORED_STRING = 8;

  private final ParserHandler handler;
  private final CsiParams csi = new CsiParams();
  private final StringBuilder osc = new StringBuilder();
  private int state = GROUND;
  private int escIntermediates;

  private int utf8Need;
  private int utf8Cp;
  private int utf8Lower = 0x80;
  private int utf8Upper = 0xBF;

  /** The raw bytes of the sequence (or UTF-8 character) still unfinished after the last feed. */
  private byte[] pending = new byte[64];
  private int pendingLength;

  public VtParser(ParserHandler handler) {
    this.handler = handler;
  }

  /** Parses {@code buf[off..off+len)}. Incomplete sequences are continued by the next call. */
  public void feed(byte[] buf, int off, int len) {
    int i = off;
    int end = off + len;
    // Where the sequence still open at the end began: the last index the parser was idle at.
    int idleAt = off - 1;
    while (i < end) {
      if (state == GROUND && utf8Need == 0) {
        idleAt = i;
      }
      int b = buf[i] & 0xff;
      if (utf8Need != 0) {
        if (b >= utf8Lower && b <= utf8Upper) {
          utf8Cp = (utf8Cp << 6) | (b & 0x3f);
          utf8Lower = 0x80;
          utf8Upper = 0xBF;
          if (--utf8Need == 0) {
            codepoint(utf8Cp);
          }
          i++;
          continue;
        }
        // A broken sequence is one U+FFFD; the byte that broke it is read again on its own.
        utf8Need = 0;
        utf8Lower = 0x80;
        utf8Upper = 0xBF;
        codepoint(0xFFFD);
        continue;
      }
      if (b < 0x80) {
        if (state == GROUND && b >= 0x20 && b != 0x7f) {
          int j = i + 1;
          while (j < end) {
            byte c = buf[j];
            if (c < 0x20 || c == 0x7f) { // negative (non-ASCII) bytes are < 0x20 too
              break;
            }
            j++;
          }
          handler.printAscii(buf, i, j);
          i = j;
          continue;
        }
        if (state == CSI_PARAM || state == CSI_ENTRY) {
          // Parameter bytes are most of an SGR-heavy stream: take them without the full dispatch.
          if (b >= '0' && b <= '9') {
            csi.digit(b - '0');
            state = CSI_PARAM;
            i++;
            continue;
          }
          if (b == ';') {
            csi.next(false);
            state = CSI_PARAM;
            i++;
            continue;
          }
        }
        codepoint(b);
      } else if (b >= 0xC2 && b <= 0xDF) {
        utf8Need = 1;
        utf8Cp = b & 0x1f;
      } else if (b >= 0xE0 && b <= 0xEF) {
        utf8Need = 2;
        utf8Cp = b & 0x0f;
        if (b == 0xE0) {
          utf8Lower = 0xA0; // no overlong forms
        } else if (b == 0xED) {
          utf8Upper = 0x9F; // no surrogates
        }
      } else if (b >= 0xF0 && b <= 0xF4) {
        utf8Need = 3;
        utf8Cp = b & 0x07;
        if (b == 0xF0) {
          utf8Lower = 0x90;
        } else if (b == 0xF4) {
          utf8Upper = 0x8F; // nothing above U+10FFFF
        }
      } else {
        codepoint(0xFFFD);
      }
      i++;
    }
    if (isIdle()) {
      pendingLength = 0;
    } else if (idleAt >= off) {
      pendingLength = 0;
      keep(buf, idleAt, end);
    } else {
      keep(buf, off, end); // the sequence began in an earlier chunk and is still open
    }
  }

  private void keep(byte[] buf, int from, int to) {
    int n = Math.min(to - from, MAX_PENDING - pendingLength);
    if (n <= 0) {
      return;
    }
    if (pendingLength + n > pending.length) {
      pending = java.util.Arrays.copyOf(pending, Math.min(MAX_PENDING, Math.max(pendingLength + n, 2 * pending.length)));
    }
    System.arraycopy(buf, from, pending, pendingLength, n);
    pendingLength += n;
  }

  /**
   * The raw bytes of the escape sequence or UTF-8 character that the input so far left unfinished
   * (empty when the parser is idle). Fed to another parser after a repaint of the screen, they put
   * it in the same state, so the rest of the stream continues there as it does here. A sequence
   * longer than {@link #MAX_PENDING} bytes is cut to its beginning. A C0 control inside an open
   * CSI sequence was already executed here and would run again there (no program does this).
   */
  public byte[] pendingBytes() {
    return java.util.Arrays.copyOf(pending, pendingLength);
  }

  /** True when the parser is between sequences (nothing half-read). */
  public boolean isIdle() {
    return state == GROUND && utf8Need == 0;
  }

  /** Forgets any half-read sequence (used by a full terminal reset). */
  public void reset() {
    pendingLength = 0;
    state = GROUND;
    utf8Need = 0;
    utf8Lower = 0x80;
    utf8Upper = 0xBF;
    osc.setLength(0);
  }

  private void codepoint(int cp) {
    // Transitions that apply in every state.
    if (cp == 0x1b) {
      if (state == OSC_STRING) {
        dispatchOsc(); // ESC ends the string; the ESC itself starts the next sequence (ESC \ = ST)
      }
      state = ESCAPE;
      escIntermediates = 0;
      return;
    }
    if (cp == 0x18 || cp == 0x1a) { // CAN, SUB abort any sequence
      state = GROUND;
      osc.setLength(0);
      return;
    }
    if (cp >= 0x80 && cp <= 0x9f) {
      c1(cp);
      return;
    }
    switch (state) {
      case GROUND:
        if (cp < 0x20) {
          handler.execute(cp);
        } else if (cp != 0x7f) {
          handler.print(cp);
        }
        return;
      case ESCAPE:
        escape(cp);
        return;
      case ESCAPE_INTERMEDIATE:
        if (cp < 0x20) {
          handler.execute(cp);
        } else if (cp < 0x30) {
          addEscIntermediate(cp);
        } else if (cp < 0x7f) {
          handler.escDispatch(escIntermediates, cp);
          state = GROUND;
        } else if (cp > 0x7f) {
          state = GROUND;
        }
        return;
      case CSI_ENTRY:
      case CSI_PARAM:
        csiParam(cp);
        return;
      case CSI_INTERMEDIATE:
        if (cp < 0x20) {
          handler.execute(cp);
        } else if (cp < 0x30) {
          if (!csi.addIntermediate(cp)) {
            state = CSI_IGNORE;
          }
        } else if (cp < 0x40) {
          state = CSI_IGNORE;
        } else if (cp < 0x7f) {
          dispatchCsi(cp);
        } else if (cp > 0x7f) {
          state = GROUND;
        }
        return;
      case CSI_IGNORE:
        if (cp < 0x20) {
          handler.execute(cp);
        } else if (cp >= 0x40 && cp < 0x7f) {
          state = GROUND;
        } else if (cp > 0x7f) {
          state = GROUND;
        }
        return;
      case OSC_STRING:
        if (cp == 0x07) {
          dispatchOsc();
          state = GROUND;
        } else if (cp >= 0x20 && osc.length() < MAX_OSC_LENGTH) {
          osc.appendCodePoint(cp);
        }
        return;
      default: // IGNORED_STRING: everything up to ST, CAN or SUB is dropped
    }
  }

  private void escape(int cp) {
    if (cp < 0x20) {
      handler.execute(cp);
    } else if (cp < 0x30) {
      addEscIntermediate(cp);
      state = ESCAPE_INTERMEDIATE;
    } else if (cp == '[') {
      csi.reset();
      state = CSI_ENTRY;
    } else if (cp == ']') {
      osc.setLength(0);
      state = OSC_STRING;
    } else if (cp == 'P' || cp == 'X' || cp == '^' || cp == '_') {
      state = IGNORED_STRING; // DCS, SOS, PM, APC
    } else if (cp < 0x7f) {
      handler.escDispatch(0, cp);
      state = GROUND;
    } else if (cp > 0x7f) {
      state = GROUND;
    }
  }

  private void addEscIntermediate(int cp) {
    if ((escIntermediates & 0xff00) == 0) {
      escIntermediates = (escIntermediates << 8) | cp;
    }
  }

  private void csiParam(int cp) {
    if (cp >= '0' && cp <= '9') {
      csi.digit(cp - '0');
      state = CSI_PARAM;
    } else if (cp == ';' || cp == ':') {
      csi.next(cp == ':');
      state = CSI_PARAM;
    } else if (cp >= 0x3c && cp <= 0x3f) {
      if (state == CSI_ENTRY) {
        csi.setPrefix(cp);
        state = CSI_PARAM;
      } else {
        state = CSI_IGNORE;
      }
    } else if (cp < 0x20) {
      handler.execute(cp);
    } else if (cp < 0x30) {
      csi.addIntermediate(cp);
      state = CSI_INTERMEDIATE;
    } else if (cp < 0x7f) {
      dispatchCsi(cp);
    } else if (cp > 0x7f) {
      state = GROUND; // a non-ASCII character cannot be part of a CSI sequence
    }
  }

  private void dispatchCsi(int finalByte) {
    state = GROUND;
    csi.finish();
    handler.csiDispatch(csi, finalByte);
  }

  private void c1(int cp) {
    switch (cp) {
      case 0x9b:
        csi.reset();
        state = CSI_ENTRY;
        return;
      case 0x9d:
        osc.setLength(0);
        state = OSC_STRING;
        return;
      case 0x90:
      case 0x98:
      case 0x9e:
      case 0x9f:
        state = IGNORED_STRING;
        return;
      case 0x9c: // ST
        if (state == OSC_STRING) {
          dispatchOsc();
        }
        state = GROUND;
        return;
      default:
        if (state == OSC_STRING || state == IGNORED_STRING) {
          return;
        }
        state = GROUND;
        handler.execute(cp);
    }
  }

  private void dispatchOsc() {
    int code = -1;
    int n = osc.length();
    int i = 0;
    int value = 0;
    while (i < n && i < 9 && osc.charAt(i) >= '0' && osc.charAt(i) <= '9') {
      value = value * 10 + (osc.charAt(i) - '0');
      i++;
    }
    String payload;
    if (i > 0 && (i == n || osc.charAt(i) == ';')) {
      code = value;
      payload = i == n ? "" : osc.substring(i + 1);
    } else {
      payload = osc.toString();
    }
    osc.setLength(0);
    handler.oscDispatch(code, payload);
  }
}
