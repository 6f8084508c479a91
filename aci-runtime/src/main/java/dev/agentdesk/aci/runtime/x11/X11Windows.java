package dev.agentdesk.aci.runtime.x11;

import static dev.agentdesk.aci.runtime.x11.Xlib.X;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.desktop.WindowBackend;
import dev.agentdesk.aci.runtime.desktop.WindowInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Top-level windows through EWMH ({@code _NET_CLIENT_LIST}, {@code _NET_ACTIVE_WINDOW}) when a
 * window manager publishes them, else the viewable, non-override-redirect children of the root.
 */
final class X11Windows implements WindowBackend {
  private final X11Connection x;
  private final DisplayGuard guard;

  X11Windows(X11Connection x, DisplayGuard guard) {
    this.x = x;
    this.guard = guard;
  }

  @Override
  public boolean windowManagerPresent() {
    return guard.call(() -> {
      long[] check = x.windowList(x.root, "_NET_SUPPORTING_WM_CHECK");
      return check.length == 1 && x.attributes(check[0]) != null;
    });
  }

  @Override
  public List<WindowInfo> list() {
    return guard.call(() -> {
      long[] ids = windowManagerPresent() ? x.windowList(x.root, "_NET_CLIENT_LIST") : rootChildren();
      long active = activeId();
      List<WindowInfo> out = new ArrayList<>();
      for (long id : ids) {
        int[] a = x.attributes(id);
        if (a == null) {
          continue;
        }
        Rect bounds = rootBounds(id, a);
        out.add(new WindowInfo(id, title(id), appClass(id), pid(id), bounds, id == active));
      }
      return out;
    });
  }

  private long[] rootChildren() {
    LongByReference rootRet = new LongByReference();
    LongByReference parent = new LongByReference();
    PointerByReference children = new PointerByReference();
    IntByReference count = new IntByReference();
    if (X.XQueryTree(x.dpy, x.root, rootRet, parent, children, count) == 0 || children.getValue() == null) {
      return new long[0];
    }
    long[] all = children.getValue().getLongArray(0, count.getValue());
    X.XFree(children.getValue());
    List<Long> keep = new ArrayList<>();
    for (long id : all) {
      int[] a = x.attributes(id);
      // map_state viewable, not override-redirect (menus, tooltips, our own clipboard window)
      if (a != null && a[4] == Xlib.IS_VIEWABLE && a[5] == 0) {
        keep.add(id);
      }
    }
    return keep.stream().mapToLong(Long::longValue).toArray();
  }

  private Rect rootBounds(long id, int[] attrs) {
    IntByReference rx = new IntByReference();
    IntByReference ry = new IntByReference();
    LongByReference child = new LongByReference();
    X.XTranslateCoordinates(x.dpy, id, x.root, 0, 0, rx, ry, child);
    return new Rect(rx.getValue(), ry.getValue(), Math.max(1, attrs[2]), Math.max(1, attrs[3]));
  }

  private String title(long id) {
    X11Connection.Property p = x.property(id, x.atom("_NET_WM_NAME"), x.atom("UTF8_STRING"), 4096);
    if (p != null && p.format() == 8) {
      return p.utf8();
    }
    p = x.property(id, x.atom("WM_NAME"), 0, 4096);
    return p != null && p.format() == 8 ? new String(p.data(), StandardCharsets.ISO_8859_1) : "";
  }

  private String appClass(long id) {
    X11Connection.Property p = x.property(id, x.atom("WM_CLASS"), 0, 4096);
    if (p == null || p.format() != 8) {
      return "";
    }
    // WM_CLASS is "instance\0class\0"
    String[] parts = new String(p.data(), StandardCharsets.ISO_8859_1).split("\0");
    return parts.length >= 2 ? parts[1] : parts.length == 1 ? parts[0] : "";
  }

  private Integer pid(long id) {
    X11Connection.Property p = x.property(id, x.atom("_NET_WM_PID"), 0, 8);
    return p == null || p.format() != 32 || p.items() < 1 ? null : (int) p.longs()[0];
  }

  @Override
  public Optional<Long> active() {
    return guard.call(() -> {
      long id = activeId();
      return id == 0 ? Optional.empty() : Optional.of(id);
    });
  }

  /** The active top-level: EWMH's answer if a WM gives one, else the focus window's top-level ancestor. */
  private long activeId() {
    long[] ewmh = x.windowList(x.root, "_NET_ACTIVE_WINDOW");
    if (ewmh.length == 1 && ewmh[0] != 0) {
      return ewmh[0];
    }
    LongByReference focus = new LongByReference();
    IntByReference revert = new IntByReference();
    X.XGetInputFocus(x.dpy, focus, revert);
    long w = focus.getValue();
    if (w == 0 || w == 1 || w == x.root) { // None, PointerRoot
      return 0;
    }
    for (int depth = 0; depth < 64; depth++) {
      LongByReference rootRet = new LongByReference();
      LongByReference parent = new LongByReference();
      PointerByReference children = new PointerByReference();
      IntByReference count = new IntByReference();
      x.takeError();
      if (X.XQueryTree(x.dpy, w, rootRet, parent, children, count) == 0 || x.takeError() != 0) {
        return 0;
      }
      if (children.getValue() != null) {
        X.XFree(children.getValue());
      }
      if (parent.getValue() == x.root || parent.getValue() == 0) {
        return w;
      }
      w = parent.getValue();
    }
    return 0;
  }

  @Override
  public Optional<Rect> geometry(long windowId) {
    return guard.call(() -> {
      if (windowId == 0 || windowId > 0xFFFFFFFFL) {
        return Optional.empty();
      }
      int[] a = x.attributes(windowId);
      return a == null ? Optional.empty() : Optional.of(rootBounds(windowId, a));
    });
  }

  @Override
  public void activate(long windowId) {
    guard.run(() -> {
      if (windowId == 0 || windowId > 0xFFFFFFFFL || x.attributes(windowId) == null) {
        throw new AciRuntimeException(AciRuntimeException.Reason.NOT_FOUND,
            String.format("activate_window: window 0x%x not found", windowId));
      }
      if (windowManagerPresent()) {
        Memory ev = new Memory(Xlib.XEVENT_SIZE);
        ev.clear();
        ev.setInt(0, Xlib.CLIENT_MESSAGE);
        ev.setInt(16, 1); // send_event
        ev.setPointer(24, x.dpy);
        ev.setLong(32, windowId);
        ev.setLong(40, x.atom("_NET_ACTIVE_WINDOW"));
        ev.setInt(48, 32);
        ev.setLong(56, 2); // source indication: pager / direct user request
        ev.setLong(64, Xlib.CURRENT_TIME);
        X.XSendEvent(x.dpy, x.root, false, Xlib.SUBSTRUCTURE_REDIRECT_MASK | Xlib.SUBSTRUCTURE_NOTIFY_MASK, ev);
      } else {
        X.XRaiseWindow(x.dpy, windowId);
        X.XSetInputFocus(x.dpy, windowId, Xlib.REVERT_TO_PARENT, Xlib.CURRENT_TIME);
      }
      int err = x.syncAndTakeError();
      if (err != 0) {
        throw AciRuntimeException.environment(
            String.format("activate_window: window 0x%x could not be focused (X error %d)", windowId, err));
      }
    });
  }

}
