package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.ptr.IntByReference;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.CaptureBackend;
import dev.agentdesk.aci.runtime.desktop.ClipboardBackend;
import dev.agentdesk.aci.runtime.desktop.Desktop;
import dev.agentdesk.aci.runtime.desktop.InputBackend;
import dev.agentdesk.aci.runtime.desktop.WindowBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The X11 desktop: input, capture and windows share one connection, whose every use goes through
 * one {@link DisplayGuard} (so Xlib never sees two threads at once on it, and nobody sees it after
 * it is closed); the capture's damage connection is used only inside that guard too. The clipboard
 * has its own connection, owned by its own thread, because it must answer selection requests at
 * any time.
 *
 * <p>{@link #close} is idempotent and safe from any thread. Callers stop the threads that use the
 * desktop first (the runtime's close does); a use that still arrives later fails with a typed
 * error instead of reaching freed memory.
 */
public final class X11Desktop implements Desktop {
  private static final Logger LOG = LoggerFactory.getLogger(X11Desktop.class);
  /** How long close waits for a call that is still running before it leaves the connection open. */
  static final long CLOSE_WAIT_MS = 1500;

  private final X11Connection main;
  private final DisplayGuard guard;
  private final X11Input input;
  private final X11Capture capture;
  private final X11Windows windows;
  private final X11Clipboard clipboard;

  private X11Desktop(X11Connection main, boolean allowShm) {
    this.main = main;
    this.guard = new DisplayGuard(main.name());
    IntByReference dummy = new IntByReference();
    if (!XTest.X.XTestQueryExtension(main.dpy, dummy, dummy, dummy, dummy)) {
      main.close();
      throw new AciRuntimeException(AciRuntimeException.Reason.UNSUPPORTED,
          "X11 display " + main.name() + " lacks the XTEST extension (needed for input)");
    }
    X11Input in = null;
    X11Capture cap = null;
    try {
      in = new X11Input(main, guard);
      cap = new X11Capture(main, guard, allowShm);
      this.windows = new X11Windows(main, guard);
      this.clipboard = new X11Clipboard(main.name());
    } catch (RuntimeException e) {
      if (cap != null) {
        cap.release();
      }
      main.close();
      throw e;
    }
    this.input = in;
    this.capture = cap;
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
    return guard.call(() -> {
      main.syncAndTakeError();
      return true;
    });
  }

  /**
   * Restores the input state (borrowed keycodes, held buttons), frees the capture's shared segment
   * and damage connection and closes the main connection — once, on whichever thread calls first,
   * after the call in progress (if any) has returned — then stops the clipboard thread, which
   * closes its own connection.
   */
  @Override
  public void close() {
    boolean released = guard.close(CLOSE_WAIT_MS, () -> {
      try {
        input.restore();
      } catch (RuntimeException e) {
        LOG.warn("restoring the keymap of {}: {}", main.name(), e.toString());
      } finally {
        try {
          capture.release();
        } finally {
          main.close();
        }
      }
    });
    if (!released) {
      LOG.warn("an X call on {} did not return within {} ms; its connection stays open until exit",
          main.name(), CLOSE_WAIT_MS);
    }
    clipboard.close();
  }
}
