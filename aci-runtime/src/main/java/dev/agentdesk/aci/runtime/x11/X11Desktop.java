package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.ptr.IntByReference;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.CaptureBackend;
import dev.agentdesk.aci.runtime.desktop.ClipboardBackend;
import dev.agentdesk.aci.runtime.desktop.Desktop;
import dev.agentdesk.aci.runtime.desktop.InputBackend;
import dev.agentdesk.aci.runtime.desktop.WindowBackend;

/**
 * The X11 desktop: input, capture and windows share one connection (serialised by one lock, so
 * Xlib never sees two threads at once on it); the clipboard has its own connection and thread
 * because it must answer selection requests at any time.
 */
public final class X11Desktop implements Desktop {
  private final X11Connection main;
  private final Object lock = new Object();
  private final X11Input input;
  private final X11Capture capture;
  private final X11Windows windows;
  private final X11Clipboard clipboard;

  private X11Desktop(X11Connection main, boolean allowShm) {
    this.main = main;
    IntByReference dummy = new IntByReference();
    if (!XTest.X.XTestQueryExtension(main.dpy, dummy, dummy, dummy, dummy)) {
      main.close();
      throw new AciRuntimeException(AciRuntimeException.Reason.UNSUPPORTED,
          "X11 display " + main.name() + " lacks the XTEST extension (needed for input)");
    }
    this.input = new X11Input(main, lock);
    this.capture = new X11Capture(main, lock, allowShm);
    this.windows = new X11Windows(main, lock);
    this.clipboard = new X11Clipboard(main.name());
  }

  /** Connects to {@code display} (e.g. {@code ":1"}), using MIT-SHM capture when available. */
  public static X11Desktop open(String display) {
    return open(display, true);
  }

  /** As {@link #open(String)}; {@code allowShm=false} forces the XGetImage capture path. */
  public static X11Desktop open(String display, boolean allowShm) {
    return new X11Desktop(X11Connection.open(display), allowShm);
  }

  @Override
  public String name() {
    return main.name();
  }

  @Override
  public InputBackend input() {
    return input;
  }

  @Override
  public CaptureBackend capture() {
    return capture;
  }

  @Override
  public WindowBackend windows() {
    return windows;
  }

  @Override
  public ClipboardBackend clipboard() {
    return clipboard;
  }

  @Override
  public boolean alive() {
    synchronized (lock) {
      main.syncAndTakeError();
      return true;
    }
  }

  @Override
  public void close() {
    input.restoreKeymap();
    capture.close();
    clipboard.close();
    synchronized (lock) {
      main.close();
    }
  }
}
