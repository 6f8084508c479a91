package dev.agentdesk.aci.runtime.x11;

import static dev.agentdesk.aci.runtime.x11.Xlib.X;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One Xlib connection. Xlib's default error handler calls {@code exit()}, which would take the
 * whole JVM down on a stale window id; we install one process-wide handler that records the
 * error against its display instead, and callers check {@link #takeError()} after a sync.
 */
final class X11Connection implements AutoCloseable {
  private static final Map<Long, Integer> LAST_ERROR = new ConcurrentHashMap<>();
  private static final Xlib.ErrorHandler HANDLER = (display, event) -> {
    // XErrorEvent: int type; Display* display; XID resourceid; unsigned long serial; uchar error_code ...
    LAST_ERROR.put(Pointer.nativeValue(display), event.getByte(32) & 0xFF);
    return 0;
  };

  static {
    X.XInitThreads();
    X.XSetErrorHandler(HANDLER);
  }

  final Pointer dpy;
  final int screen;
  final long root;
  private final String name;
  private final Map<String, Long> atoms = new ConcurrentHashMap<>();

  private X11Connection(Pointer dpy, String name) {
    this.dpy = dpy;
    this.name = name;
    this.screen = X.XDefaultScreen(dpy);
    this.root = X.XRootWindow(dpy, screen);
  }

  static X11Connection open(String displayName) {
    Pointer dpy = X.XOpenDisplay(displayName);
    if (dpy == null) {
      throw new AciRuntimeException(AciRuntimeException.Reason.ENVIRONMENT,
          "X11 display not available yet: cannot open display " + displayName);
    }
    return new X11Connection(dpy, displayName);
  }

  String name() {
    return name;
  }

  int width() {
    return X.XDisplayWidth(dpy, screen);
  }

  int height() {
    return X.XDisplayHeight(dpy, screen);
  }

  long atom(String atomName) {
    return atoms.computeIfAbsent(atomName, n -> X.XInternAtom(dpy, n, false));
  }

  /** Clears any recorded error, syncs, and returns the X error code raised since, or 0. */
  int syncAndTakeError() {
    X.XSync(dpy, false);
    return takeError();
  }

  int takeError() {
    Integer e = LAST_ERROR.remove(Pointer.nativeValue(dpy));
    return e == null ? 0 : e;
  }

  /** A property as raw bytes plus its type and format, or null when absent. */
  record Property(long type, int format, int items, byte[] data) {
    long[] longs() {
      long[] out = new long[items];
      for (int i = 0; i < items; i++) {
        out[i] = java.nio.ByteBuffer.wrap(data, i * 8, 8).order(java.nio.ByteOrder.nativeOrder()).getLong();
      }
      return out;
    }

    String utf8() {
      return new String(data, StandardCharsets.UTF_8);
    }
  }

  Property property(long window, long prop, long reqType, long maxBytes) {
    LongByReference type = new LongByReference();
    IntByReference format = new IntByReference();
    LongByReference nitems = new LongByReference();
    LongByReference after = new LongByReference();
    PointerByReference data = new PointerByReference();
    takeError();
    int status = X.XGetWindowProperty(dpy, window, prop, 0, (maxBytes + 3) / 4, false, reqType, type, format,
        nitems, after, data);
    Pointer p = data.getValue();
    try {
      if (status != 0 || takeError() != 0 || type.getValue() == 0 || p == null) {
        return null;
      }
      int n = (int) nitems.getValue();
      int unit = format.getValue() == 8 ? 1 : format.getValue() == 16 ? 2 : Native.LONG_SIZE;
      return new Property(type.getValue(), format.getValue(), n, p.getByteArray(0, n * unit));
    } finally {
      if (p != null) {
        X.XFree(p);
      }
    }
  }

  long[] windowList(long window, String prop) {
    Property p = property(window, atom(prop), 0 /* AnyPropertyType */, 1 << 20);
    return p == null || p.format() != 32 ? new long[0] : p.longs();
  }

  /** Window attributes: x, y, width, height, map_state, override_redirect; null if the window is gone. */
  int[] attributes(long window) {
    Memory attrs = new Memory(136);
    takeError();
    int ok = X.XGetWindowAttributes(dpy, window, attrs);
    if (ok == 0 || syncAndTakeError() != 0) {
      return null;
    }
    return new int[] {attrs.getInt(0), attrs.getInt(4), attrs.getInt(8), attrs.getInt(12), attrs.getInt(92),
        attrs.getInt(120)};
  }

  private boolean closed;

  /**
   * Closes the display once. The caller owns the connection's use: no other thread may be inside
   * or about to enter an Xlib call on it (see {@link DisplayGuard}, and the clipboard's own thread).
   */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      LAST_ERROR.remove(Pointer.nativeValue(dpy));
      X.XCloseDisplay(dpy);
    }
  }
}
