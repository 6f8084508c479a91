package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.List;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.CaptureBackend;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.image.Bands;
import dev.agentdesk.aci.runtime.image.RgbImage;

/**
 * Screen capture from the root window. MIT-SHM ({@code XShmGetImage}) lets the server write the
 * pixels straight into memory we map, avoiding a copy through the socket; when the extension is
 * missing or attaching fails (for example across IPC namespaces) we fall back to {@code XGetImage}.
 * The root window's contents never include the cursor, so captures are cursor-free.
 */
final class X11Capture implements CaptureBackend {
  // XImage field offsets on LP64.
  private static final int IMG_DATA = 16;
  private static final int IMG_BYTES_PER_LINE = 44;
  private static final int IMG_BITS_PER_PIXEL = 48;
  private static final int IMG_RED_MASK = 56;
  /** Below this many source bytes the conversion runs on one thread. */
  private static final int PARALLEL_MIN_BYTES = 512 * 1024;

  private final X11Connection x;
  private final DisplayGuard guard;
  private final boolean useShm;
  // Everything below is touched only inside the guard (the segment, the damage connection, the frame).
  private ShmImage shm;
  /** Null when DAMAGE is unavailable or shared memory is off: then every capture reads its region. */
  private final X11DamageTracker damage;
  /**
   * With damage tracking: the whole screen as of the last capture, patched with the damaged
   * rectangles on each capture; null when it must be read whole.
   */
  private byte[] frame;
  private int frameW;
  private int frameH;
  /** The last image handed out with damage tracking: returned again while nothing is drawn. */
  private RgbImage lastOut;
  private Rect lastRegion;

  X11Capture(X11Connection x, DisplayGuard guard, boolean allowShm) {
    this.x = x;
    this.guard = guard;
    this.useShm = allowShm && XShm.X.XShmQueryExtension(x.dpy);
    this.damage = useShm ? X11DamageTracker.open(x.name()).orElse(null) : null;
  }

  /** Whether captures re-read only what XDamage reports as drawn since the previous capture. */
  boolean damageTracking() {
    return damage != null;
  }

  @Override
  public Rect screen() {
    return guard.call(() -> new Rect(0, 0, x.width(), x.height()));
  }

  @Override
  public boolean sharedMemory() {
    return useShm && (shm == null || shm.ok);
  }

  @Override
  public RgbImage capture(Rect r) {
    return guard.call(() -> {
      Rect screen = new Rect(0, 0, x.width(), x.height());
      if (r.intersect(screen) == null || !r.equals(r.intersect(screen))) {
        throw AciRuntimeException.badRequest("capture region " + r + " is outside the screen " + screen);
      }
      if (sharedMemory()) {
        RgbImage img = damage != null ? captureTracked(r) : captureShm(r);
        if (img != null) {
          return img;
        }
      }
      return captureGetImage(r);
    });
  }

  /**
   * Brings {@link #frame} up to date by reading only the rectangles drawn since the last capture
   * (the whole screen the first time, after a resize, or when most of it changed), then copies
   * {@code r} out of it. Any failure drops the frame so the next capture reads everything.
   */
  private RgbImage captureTracked(Rect r) {
    int sw = x.width();
    int sh = x.height();
    Rect screen = new Rect(0, 0, sw, sh);
    List<Rect> drawn = damage.take();
    if (shm == null || shm.w != sw || shm.h != sh) {
      if (shm != null) {
        shm.close();
      }
      frame = null;
      shm = new ShmImage(x, sw, sh);
      if (!shm.ok) {
        return null;
      }
    }
    if (frame != null && drawn.isEmpty() && frameW == sw && frameH == sh && lastOut != null
        && r.equals(lastRegion)) {
      return lastOut; // nothing drawn since: the same immutable image, its hash already known
    }
    lastOut = null;
    if (frame == null || frameW != sw || frameH != sh || mostOf(drawn, screen)) {
      x.takeError();
      if (!XShm.X.XShmGetImage(x.dpy, x.root, shm.image, 0, 0, Xlib.ALL_PLANES) || x.takeError() != 0) {
        frame = null;
        return null;
      }
      byte[] fresh = frame != null && frame.length == sw * sh * 3 ? frame : new byte[sw * sh * 3];
      toRgb(shm.image, sw, sh, fresh, sw, 0, 0);
      frame = fresh;
      frameW = sw;
      frameH = sh;
    } else {
      for (Rect d : drawn) {
        Rect c = d.intersect(screen);
        if (c != null && !readInto(c)) {
          frame = null;
          return null;
        }
      }
    }
    lastOut = copyOut(frame, sw, r);
    lastRegion = r;
    return lastOut;
  }

  /** Whether re-reading {@code drawn} would cost about as much as reading the whole screen. */
  private static boolean mostOf(List<Rect> drawn, Rect screen) {
    if (drawn.size() > 256) {
      return true;
    }
    long area = 0;
    for (Rect d : drawn) {
      area += (long) d.w() * d.h();
    }
    return area * 2 > (long) screen.w() * screen.h();
  }

  /** Reads one damaged rectangle through a sub-image header over the attached segment. */
  private boolean readInto(Rect c) {
    Pointer sub = XShm.X.XShmCreateImage(x.dpy, Xlib.X.XDefaultVisual(x.dpy, x.screen),
        Xlib.X.XDefaultDepth(x.dpy, x.screen), Xlib.ZPIXMAP, shm.addr, shm.info, c.w(), c.h());
    if (sub == null) {
      return false;
    }
    try {
      x.takeError();
      if (!XShm.X.XShmGetImage(x.dpy, x.root, sub, c.x(), c.y(), Xlib.ALL_PLANES) || x.takeError() != 0) {
        return false;
      }
      toRgb(sub, c.w(), c.h(), frame, frameW, c.x(), c.y());
      return true;
    } finally {
      sub.setPointer(IMG_DATA, null); // the segment is shm's, not this header's
      Xlib.X.XFree(sub);
    }
  }

  private static RgbImage copyOut(byte[] full, int fullWidth, Rect r) {
    if (r.x() == 0 && r.y() == 0 && r.w() == fullWidth && full.length == r.w() * r.h() * 3) {
      return new RgbImage(r.w(), r.h(), full.clone());
    }
    byte[] out = new byte[r.w() * r.h() * 3];
    for (int y = 0; y < r.h(); y++) {
      System.arraycopy(full, ((r.y() + y) * fullWidth + r.x()) * 3, out, y * r.w() * 3, r.w() * 3);
    }
    return new RgbImage(r.w(), r.h(), out);
  }

  private RgbImage captureShm(Rect r) {
    if (shm == null || shm.w != r.w() || shm.h != r.h()) {
      if (shm != null) {
        shm.close();
      }
      shm = new ShmImage(x, r.w(), r.h());
      if (!shm.ok) {
        return null;
      }
    }
    x.takeError();
    boolean ok = XShm.X.XShmGetImage(x.dpy, x.root, shm.image, r.x(), r.y(), Xlib.ALL_PLANES);
    if (!ok || x.takeError() != 0) {
      return null;
    }
    byte[] rgb = new byte[r.w() * r.h() * 3];
    toRgb(shm.image, r.w(), r.h(), rgb, r.w(), 0, 0);
    return new RgbImage(r.w(), r.h(), rgb);
  }

  private RgbImage captureGetImage(Rect r) {
    x.takeError();
    Pointer img = Xlib.X.XGetImage(x.dpy, x.root, r.x(), r.y(), r.w(), r.h(), Xlib.ALL_PLANES, Xlib.ZPIXMAP);
    if (img == null) {
      throw AciRuntimeException.environment("capture failed: XGetImage returned no image (X error "
          + x.takeError() + ")");
    }
    try {
      byte[] rgb = new byte[r.w() * r.h() * 3];
      toRgb(img, r.w(), r.h(), rgb, r.w(), 0, 0);
      return new RgbImage(r.w(), r.h(), rgb);
    } finally {
      Xlib.X.XDestroyImage(img);
    }
  }

  /** Converts a w×h XImage into {@code dst} (a packed RGB image {@code dstWidth} wide) at (dx, dy). */
  private static void toRgb(Pointer image, int w, int h, byte[] dst, int dstWidth, int dx, int dy) {
    int bpp = image.getInt(IMG_BITS_PER_PIXEL);
    if (bpp != 32) {
      throw AciRuntimeException.environment("capture failed: unsupported pixel format (" + bpp + " bits per pixel)");
    }
    boolean redHigh = image.getLong(IMG_RED_MASK) == 0xFF0000L;
    int stride = image.getInt(IMG_BYTES_PER_LINE);
    Pointer data = image.getPointer(IMG_DATA);
    // Read the pixels through a direct buffer over the XImage's memory, one row at a time, in
    // parallel bands: a 32-bpp pixel read as a little-endian int is 0x00RRGGBB when red is the high mask.
    int perRow = stride / 4;
    java.nio.IntBuffer px = data.getByteBuffer(0, (long) stride * h).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .asIntBuffer();
    int rs = redHigh ? 16 : 0;
    int bs = redHigh ? 0 : 16;
    Bands.run(h, Bands.count(h, stride, PARALLEL_MIN_BYTES), (index, first, last) -> {
      int[] row = new int[w];
      for (int y = first; y < last; y++) {
        px.get(y * perRow, row); // bulk copy of one row out of the shared segment
        int o = ((dy + y) * dstWidth + dx) * 3;
        for (int x = 0; x < w; x++) {
          int p = row[x];
          dst[o] = (byte) (p >> rs);
          dst[o + 1] = (byte) (p >> 8);
          dst[o + 2] = (byte) (p >> bs);
          o += 3;
        }
      }
      return null;
    });
  }

  /**
   * Detaches and frees the shared segment and closes the damage connection. Called once, by the
   * desktop's close, inside the guard: no capture (and so no band reading the segment) is running.
   */
  void release() {
    try {
      if (damage != null) {
        damage.close();
      }
    } finally {
      if (shm != null) {
        shm.close();
        shm = null;
      }
    }
  }

  /** One shared-memory XImage of a fixed size. */
  private static final class ShmImage {
    final int w;
    final int h;
    final X11Connection x;
    final Memory info = new Memory(32);
    Pointer image;
    Pointer addr;
    boolean ok;

    ShmImage(X11Connection x, int w, int h) {
      this.x = x;
      this.w = w;
      this.h = h;
      info.clear();
      image = XShm.X.XShmCreateImage(x.dpy, Xlib.X.XDefaultVisual(x.dpy, x.screen),
          Xlib.X.XDefaultDepth(x.dpy, x.screen), Xlib.ZPIXMAP, null, info, w, h);
      if (image == null) {
        return;
      }
      long size = (long) image.getInt(IMG_BYTES_PER_LINE) * h;
      int id = XShm.SysV.C.shmget(XShm.SysV.IPC_PRIVATE, size, XShm.SysV.IPC_CREAT | 0600);
      if (id < 0) {
        return;
      }
      addr = XShm.SysV.C.shmat(id, null, 0);
      if (addr == null || Pointer.nativeValue(addr) == -1L) {
        XShm.SysV.C.shmctl(id, XShm.SysV.IPC_RMID, null);
        addr = null;
        return;
      }
      info.setInt(8, id);
      info.setPointer(16, addr);
      info.setInt(24, 0);
      image.setPointer(IMG_DATA, addr);
      x.takeError();
      boolean attached = XShm.X.XShmAttach(x.dpy, info);
      int err = x.syncAndTakeError();
      // Marked for removal now: the segment disappears with its last detach, even if we crash.
      XShm.SysV.C.shmctl(id, XShm.SysV.IPC_RMID, null);
      ok = attached && err == 0;
    }

    void close() {
      if (ok) {
        XShm.X.XShmDetach(x.dpy, info);
        Xlib.X.XSync(x.dpy, false);
      }
      if (addr != null) {
        XShm.SysV.C.shmdt(addr);
      }
      if (image != null) {
        // The data pointer is our shm segment: detach it from the XImage before Xlib frees the struct.
        image.setPointer(IMG_DATA, null);
        Xlib.X.XFree(image);
      }
      ok = false;
    }
  }
}
