package dev.agentdesk.terminal.osc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds OSC 9;4, 777 and 7770 sequences in the raw PTY byte stream. One scanner per stream: a
 * sequence split across reads is completed on a later call (the partial body is the carry-over,
 * at most {@value OscCodes#MAX_BODY} bytes). Every qualifying sequence of a chunk is returned, in
 * stream order. The bytes are only read, never changed; the VT engine consumes them afterwards.
 *
 * <p>Not thread-safe: only the reader of one stream calls it.
 */
public final class OscScanner {
  private enum State { GROUND, ESCAPE, BODY, BODY_ESCAPE }

  private State state = State.GROUND;
  /** Body bytes of the OSC in progress (the carry-over between reads). */
  private final byte[] body = new byte[OscCodes.MAX_BODY];
  private int bodyLen;
  /** True once the body proved uninteresting or too long: skip to its terminator. */
  private boolean skipping;

  /** A notification and the buffer index just past its terminator. */
  public record Hit(OscNotification notification, int end) {}

  /** Scans {@code len} bytes of {@code buf} from {@code off}. */
  public List<OscNotification> scan(byte[] buf, int off, int len) {
    List<Hit> hits = scanHits(buf, off, len);
    if (hits.isEmpty()) {
      return List.of();
    }
    List<OscNotification> out = new ArrayList<>(hits.size());
    for (Hit h : hits) {
      out.add(h.notification());
    }
    return out;
  }

  /**
   * Like {@link #scan} but with where each sequence ended, so a caller can hand the bytes before
   * it to the VT engine first and keep screen events and notifications in stream order.
   */
  public List<Hit> scanHits(byte[] buf, int off, int len) {
    if (off < 0 || len < 0 || off + len > buf.length) {
      throw new IndexOutOfBoundsException("off=" + off + " len=" + len + " size=" + buf.length);
    }
    List<Hit> found = null;
    int end = off + len;
    for (int i = off; i < end; i++) {
      byte b = buf[i];
      switch (state) {
        case GROUND -> {
          if (b == OscCodes.ESC) {
            state = State.ESCAPE;
          }
        }
        case ESCAPE -> {
          if (b == OscCodes.OSC_INTRODUCER) {
            state = State.BODY;
            bodyLen = 0;
            skipping = false;
          } else if (b != OscCodes.ESC) {
            state = State.GROUND;
          }
        }
        case BODY -> {
          if (b == OscCodes.BEL) {
            found = finish(found, i + 1);
          } else if (b == OscCodes.ESC) {
            state = State.BODY_ESCAPE;
          } else if (b == OscCodes.CAN || b == OscCodes.SUB) {
            state = State.GROUND;
          } else {
            append(b);
          }
        }
        case BODY_ESCAPE -> {
          if (b == OscCodes.ST_FINAL) {
            found = finish(found, i + 1);
          } else if (b == OscCodes.OSC_INTRODUCER) {
            // ESC ] inside a body: the old sequence was abandoned and a new one starts.
            state = State.BODY;
            bodyLen = 0;
            skipping = false;
          } else {
            state = b == OscCodes.ESC ? State.ESCAPE : State.GROUND;
          }
        }
        default -> throw new IllegalStateException(state.name());
      }
    }
    return found == null ? List.of() : found;
  }

  private void append(byte b) {
    if (skipping) {
      return;
    }
    if (bodyLen == OscCodes.MAX_BODY) {
      skipping = true;
      return;
    }
    body[bodyLen++] = b;
    // Decide early whether the sequence can be one of ours, so titles and other long OSCs are
    // not buffered at all.
    if (bodyLen <= 5 && !couldBeInteresting()) {
      skipping = true;
    }
  }

  private boolean couldBeInteresting() {
    return prefixOf(OscCodes.PROGRESS_PREFIX) || prefixOf(OscCodes.NOTIFY_PREFIX) || prefixOf(OscCodes.HOOK_PREFIX);
  }

  private boolean prefixOf(String prefix) {
    int n = Math.min(bodyLen, prefix.length());
    for (int i = 0; i < n; i++) {
      if (body[i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private List<Hit> finish(List<Hit> found, int end) {
    state = State.GROUND;
    if (skipping) {
      return found;
    }
    OscNotification n = decode(new String(body, 0, bodyLen, StandardCharsets.UTF_8));
    if (n == null) {
      return found;
    }
    List<Hit> out = found == null ? new ArrayList<>(2) : found;
    out.add(new Hit(n, end));
    return out;
  }

  /** Decodes one complete OSC body, or null when it is not a well-formed sequence of ours. */
  static OscNotification decode(String s) {
    if (s.startsWith(OscCodes.PROGRESS_PREFIX)) {
      String[] parts = s.substring(OscCodes.PROGRESS_PREFIX.length()).split(";", -1);
      Integer st = smallNumber(parts[0]);
      if (st == null || st > 4) {
        return null;
      }
      Integer value = parts.length > 1 && !parts[1].isEmpty() ? smallNumber(parts[1]) : Integer.valueOf(0);
      if (value == null) {
        return null;
      }
      return new OscNotification.ProgressReport(st, Math.min(value, 100));
    }
    if (s.startsWith(OscCodes.HOOK_PREFIX)) {
      Map<String, String> fields = new LinkedHashMap<>();
      for (String part : s.substring(OscCodes.HOOK_PREFIX.length()).split(";")) {
        int eq = part.indexOf('=');
        if (eq > 0) {
          fields.putIfAbsent(part.substring(0, eq), part.substring(eq + 1));
        }
      }
      return new OscNotification.HookMarker(fields);
    }
    if (s.startsWith(OscCodes.NOTIFY_PREFIX + "notify;")) {
      String rest = s.substring((OscCodes.NOTIFY_PREFIX + "notify;").length());
      int semi = rest.indexOf(';');
      // With one field it is the body (no title), as some emitters send it.
      String title = semi < 0 ? "" : rest.substring(0, semi);
      String body = semi < 0 ? rest : rest.substring(semi + 1);
      return new OscNotification.DesktopNotification(title, body);
    }
    return null;
  }

  private static Integer smallNumber(String s) {
    if (s.isEmpty() || s.length() > 3) {
      return null;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return null;
      }
    }
    return Integer.parseInt(s);
  }

  /** Bytes of an unfinished sequence held between reads (for tests of the bound). */
  int carriedBytes() {
    return state == State.BODY || state == State.BODY_ESCAPE ? bodyLen : 0;
  }
}
