package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.agentdesk.aci.runtime.desktop.Rect;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which parts of the screen were drawn since the last look, from the X DAMAGE extension on the
 * root window. It runs on its own X connection: with the non-empty report level the server sends
 * one notify event per empty→non-empty transition, and nobody reads events on the main connection,
 * so they would pile up there; here they are drained after every fetch.
 *
 * <p>Ordering: {@link #take()} subtracts the damage and fetches it in one round trip, so the
 * server has cleared the damage before the caller issues its GetImage requests. Anything drawn
 * after the subtract is damage for the next call, so a frame assembled from the fetched rectangles
 * never misses a change that happened before its capture.
 */
final class X11DamageTracker implements AutoCloseable {
  private final X11Connection conn;
  private final long damage;
  private final long region;
  private final Memory event = new Memory(Xlib.XEVENT_SIZE);

  private X11DamageTracker(X11Connection conn, long damage, long region) {
    this.conn = conn;
    this.damage = damage;
    this.region = region;
  }

  /** A tracker on {@code display}, or empty when the server lacks DAMAGE 1.1 / XFIXES 2. */
  static Optional<X11DamageTracker> open(String display) {
    X11Connection c;
    try {
      c = X11Connection.open(display);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    try {
      IntByReference a = new IntByReference();
      IntByReference b = new IntByReference();
      if (!XDamage.Fixes.F.XFixesQueryExtension(c.dpy, a, b) || !XDamage.D.XDamageQueryExtension(c.dpy, a, b)) {
        c.close();
        return Optional.empty();
      }
      // both extensions refuse requests until the client has announced the version it speaks
      a.setValue(2);
      b.setValue(0);
      XDamage.Fixes.F.XFixesQueryVersion(c.dpy, a, b);
      a.setValue(1);
      b.setValue(1);
      XDamage.D.XDamageQueryVersion(c.dpy, a, b);
      c.takeError();
      long dmg = XDamage.D.XDamageCreate(c.dpy, c.root, XDamage.REPORT_NON_EMPTY);
      long reg = XDamage.Fixes.F.XFixesCreateRegion(c.dpy, null, 0);
      if (c.syncAndTakeError() != 0) {
        c.close();
        return Optional.empty();
      }
      return Optional.of(new X11DamageTracker(c, dmg, reg));
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      c.close();
      return Optional.empty();
    }
  }

  /** The rectangles drawn since the previous call (they may overlap and exceed the screen). */
  List<Rect> take() {
    XDamage.D.XDamageSubtract(conn.dpy, damage, 0L, region);
    IntByReference n = new IntByReference();
    Pointer rects = XDamage.Fixes.F.XFixesFetchRegion(conn.dpy, region, n);
    List<Rect> out = new ArrayList<>(Math.max(0, n.getValue()));
    if (rects != null) {
      try {
        for (int i = 0; i < n.getValue(); i++) {
          long o = i * 8L;
          int w = rects.getShort(o + 4) & 0xFFFF;
          int h = rects.getShort(o + 6) & 0xFFFF;
          if (w > 0 && h > 0) {
            out.add(new Rect(rects.getShort(o), rects.getShort(o + 2), w, h));
          }
        }
      } finally {
        Xlib.X.XFree(rects);
      }
    }
    while (Xlib.X.XPending(conn.dpy) > 0) {
      Xlib.X.XNextEvent(conn.dpy, event); // the notify events carry nothing we need
    }
    return out;
  }

  @Override
  public void close() {
    XDamage.D.XDamageDestroy(conn.dpy, damage);
    XDamage.Fixes.F.XFixesDestroyRegion(conn.dpy, region);
    conn.close();
  }
}
