package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A separate X client (its own connection, like any other application) that puts plain coloured
 * windows at exact places, so that captures and window queries have a known truth to match.
 */
public final class TestWindows implements AutoCloseable {
  private final X11Connection x;

  public TestWindows(String display) {
    x = X11Connection.open(display);
  }

  /** A top-level window filled with {@code rgb}, titled and classed, with an optional pid. */
  public long create(int px, int py, int w, int h, int rgb, String title, String cls, Integer pid) {
    long id = Xlib.X.XCreateSimpleWindow(x.dpy, x.root, px, py, w, h, 0, 0, rgb);
    byte[] t = title.getBytes(StandardCharsets.UTF_8);
    Xlib.X.XChangeProperty(x.dpy, id, x.atom("_NET_WM_NAME"), x.atom("UTF8_STRING"), 8, 0, t, t.length);
    byte[] c = ("inst\0" + cls + "\0").getBytes(StandardCharsets.ISO_8859_1);
    Xlib.X.XChangeProperty(x.dpy, id, x.atom("WM_CLASS"), x.atom("STRING"), 8, 0, c, c.length);
    if (pid != null) {
      byte[] p = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(pid).array();
      Xlib.X.XChangeProperty(x.dpy, id, x.atom("_NET_WM_PID"), x.atom("CARDINAL"), 32, 0, p, 1);
    }
    Xlib.X.XMapWindow(x.dpy, id);
    Xlib.X.XSync(x.dpy, false);
    return id;
  }

  /** A child window (a coloured patch) inside {@code parent}. */
  public long patch(long parent, int px, int py, int w, int h, int rgb) {
    long id = Xlib.X.XCreateSimpleWindow(x.dpy, parent, px, py, w, h, 0, 0, rgb);
    Xlib.X.XMapWindow(x.dpy, id);
    Xlib.X.XSync(x.dpy, false);
    return id;
  }

  /** Moves a window (any client's, e.g. another application's) to {@code (px, py)}. */
  public void move(long id, int px, int py) {
    Xlib.X.XMoveWindow(x.dpy, id, px, py);
    Xlib.X.XSync(x.dpy, false);
  }

  public void raise(long id) {
    Xlib.X.XRaiseWindow(x.dpy, id);
    Xlib.X.XSync(x.dpy, false);
  }

  public void destroy(long id) {
    Xlib.X.XDestroyWindow(x.dpy, id);
    Xlib.X.XSync(x.dpy, false);
  }

  Pointer display() {
    return x.dpy;
  }

  @Override
  public void close() {
    x.close();
  }
}
