package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
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
  private final Object lock;
  private final boolean useShm;
  private ShmImage shm;

  X11Capture(X11Connection x, Object lock, boolean allowShm) {
    this.x = x;
    this.lock = lock;
    this.useShm = allowShm && XShm.X.XShmQueryExtension(x.dpy);
  }

  @Override
  public Rect screen() {
    synchronized (lock) {
      return new Rect(0, 0, x.width(), x.height());
    }
  }

  @Override
  public boolean sharedMemory() {
    return useShm && (shm == null || shm.ok);
  }

  @Override
  public RgbImage capture(Rect r) {
    synchronized (lock) {
      Rect screen = new Rect(0, 0, x.width(), x.height());
      if (r.intersect(screen) == null || !r.equals(r.intersect(screen))) {
        throw AciRuntimeException.badRequest("capture region " + r + " is outside the screen " + screen);
      }
      if (sharedMemory()) {
        RgbImage img = captureShm(r);
        if (img != null) {
          return img;
        }
      }
      return captureGetImage(r);
    }
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
    return toRgb(shm.image, r.w(), r.h());
  }

  private RgbImage captureGetImage(Rect r) {
    x.takeError();
    Pointer img = Xlib.X.XGetImage(x.dpy, x.root, r.x(), r.y(), r.w(), r.h(), Xlib.ALL_PLANES, Xlib.ZPIXMAP);
    if (img == null) {
      throw AciRuntimeException.environment("capture failed: XGetImage returned no image (X error "
          + x.takeError() + ")");
    }
    try {
      return toRgb(img, r.w(), r.h());
    } finally {
      Xlib.X.XDestroyImage(img);
    }
  }

  private static RgbImage toRgb(Pointer image, int w, int h) {
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
    byte[] rgb = new byte[w * h * 3];
    int rs = redHigh ? 16 : 0;
    int bs = redHigh ? 0 : 16;
    Bands.run(h, Bands.count(h, stride, PARALLEL_MIN_BYTES), (index, first, last) -> {
      int[] row = new int[w];
      int o = first * w * 3;
      for (int y = first; y < last; y++) {
        px.get(y * perRow, row); // bulk copy of one row out of the shared segment
        for (int x = 0; x < w; x++) {
          int p = row[x];
          rgb[o] = (byte) (p >> rs);
          rgb[o + 1] = (byte) (p >> 8);
          rgb[o + 2] = (byte) (p >> bs);
          o += 3;
        }
      }
      return null;
    });
    return new RgbImage(w, h, rgb);
  }

  void close() {
    synchronized (lock) {
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
