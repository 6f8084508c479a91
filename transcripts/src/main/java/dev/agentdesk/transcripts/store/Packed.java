package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A compact byte form for the record fields no SQL statement looks at. Strings are a varint of
 * (UTF-8 length + 1), 0 meaning null, then the bytes; integers are zigzag varints; a boolean is a
 * byte. The first byte is the format version, so that a newer layout is refused with a clear
 * error instead of being misread.
 */
final class Packed {
  static final int VERSION = 1;

  private Packed() {}

  /** Builds one packed value; reusable after {@link #toBytes}. */
  static final class Out {
    private byte[] buf = new byte[256];
    private int n;

    Out start() {
      n = 0;
      put(VERSION);
      return this;
    }

    Out str(String s) {
      if (s == null) {
        return varint(0);
      }
      // Optimistically copy ASCII chars straight in after a one-byte length (the common case: ids,
      // timestamps, model names); anything else is encoded properly over the attempt.
      int len = s.length();
      if (len < 127) {
        int start = n;
        room(1 + len);
        buf[n++] = (byte) (len + 1);
        int i = 0;
        for (; i < len; i++) {
          char c = s.charAt(i);
          if (c >= 0x80) {
            break;
          }
          buf[n++] = (byte) c;
        }
        if (i == len) {
          return this;
        }
        n = start;
      }
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      varint(b.length + 1L);
      room(b.length);
      System.arraycopy(b, 0, buf, n, b.length);
      n += b.length;
      return this;
    }

    Out lng(long v) {
      return varint((v << 1) ^ (v >> 63));
    }

    Out bool(boolean b) {
      put(b ? 1 : 0);
      return this;
    }

    byte[] toBytes() {
      return Arrays.copyOf(buf, n);
    }

    private Out varint(long v) {
      room(10);
      while ((v & ~0x7FL) != 0) {
        buf[n++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      buf[n++] = (byte) v;
      return this;
    }

    private void put(int b) {
      room(1);
      buf[n++] = (byte) b;
    }

    private void room(int more) {
      if (n + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + more));
      }
    }
  }

  /** Reads one packed value in the order it was written. */
  static final class In {
    private final byte[] buf;
    private final String kind;
    private final String id;
    private int at;

    /** {@code kind} and {@code id} name the row in errors, e.g. "message" and its uuid. */
    In(byte[] buf, String kind, String id) {
      this.buf = buf;
      this.kind = kind;
      this.id = id;
      if (buf == null || buf.length == 0) {
        throw corrupt("no packed fields");
      }
      if (buf[0] != VERSION) {
        throw new TranscriptException(Reason.SCHEMA_TOO_NEW, "the stored " + kind + " " + id + " uses packed format "
            + buf[0] + " but this agentdesk reads format " + VERSION + "; use a newer agentdesk");
      }
      this.at = 1;
    }

    String str() {
      long len = varint() - 1;
      if (len < 0) {
        return null;
      }
      if (len > buf.length - at) {
        throw corrupt("a string runs past the end of its row");
      }
      String s = new String(buf, at, (int) len, StandardCharsets.UTF_8);
      at += (int) len;
      return s;
    }

    /** Whether a value follows (a trailing optional field). */
    boolean more() {
      return at < buf.length;
    }

    long lng() {
      long v = varint();
      return (v >>> 1) ^ -(v & 1);
    }

    boolean bool() {
      if (at >= buf.length) {
        throw corrupt("a row ends early");
      }
      return buf[at++] != 0;
    }

    private long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= buf.length) {
          throw corrupt("a row ends early");
        }
        byte b = buf[at++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
      throw corrupt("a number is longer than 64 bits");
    }

    private TranscriptException corrupt(String why) {
      return new TranscriptException(Reason.STORE_FAILURE, "the database holds a damaged " + kind + " " + id + ": "
          + why + "; re-import the source files into a new database");
    }
  }
}
