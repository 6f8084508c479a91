package dev.agentdesk.aci.runtime.x11;

import static dev.agentdesk.aci.runtime.x11.Xlib.X;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.ClipboardBackend;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The CLIPBOARD selection. X has no clipboard storage: the owner of the selection answers every
 * paste itself. So this class owns a hidden window on its own connection and a thread that serves
 * {@code SelectionRequest}s for as long as the runtime holds the selection; reads from other owners
 * go through {@code XConvertSelection} on the same thread. Commands reach the thread through a
 * queue and a wake-up pipe, so it sleeps in {@code poll} instead of spinning.
 *
 * <p>The thread owns the connection: only it makes Xlib calls on it, and it closes it (and the
 * pipe) when its loop ends, so a close from another thread can never free the display under it.
 */
final class X11Clipboard implements ClipboardBackend, AutoCloseable {
  /** Text cap in both directions (the reference's 1 MiB). */
  static final int MAX_BYTES = 1 << 20;
  static final long GET_TIMEOUT_MS = 1500;
  /** The loop wakes within one poll of close; this bounds the wait for it to finish. */
  private static final long CLOSE_WAIT_MS = 1000;

  private final X11Connection x;
  private final long window;
  private final long clipboard;
  private final long utf8;
  private final long targets;
  private final long incr;
  private final long transfer;
  private final int[] wake = new int[2];
  private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
  private final Thread thread;
  /** Guards {@link #running} and writes to the wake-up pipe, which the loop closes once stopped. */
  private final Object wakeLock = new Object();
  private volatile boolean running = true;
  private byte[] owned; // UTF-8 text we serve while we own CLIPBOARD; loop thread only
  private PendingGet pending; // loop thread only

  interface LibC extends Library {
    LibC C = Native.load("c", LibC.class);

    int pipe(int[] fds);

    int poll(Memory fds, long nfds, int timeoutMs);

    long read(int fd, byte[] buf, long n);

    long write(int fd, byte[] buf, long n);

    int close(int fd);
  }

  X11Clipboard(String display) {
    x = X11Connection.open(display);
    window = X.XCreateSimpleWindow(x.dpy, x.root, -10, -10, 1, 1, 0, 0, 0);
    X.XSelectInput(x.dpy, window, Xlib.PROPERTY_CHANGE_MASK);
    clipboard = x.atom("CLIPBOARD");
    utf8 = x.atom("UTF8_STRING");
    targets = x.atom("TARGETS");
    incr = x.atom("INCR");
    transfer = x.atom("AGENTDESK_CLIPBOARD");
    X.XSync(x.dpy, false);
    if (LibC.C.pipe(wake) != 0) {
      throw AciRuntimeException.environment("clipboard: cannot create wake-up pipe");
    }
    thread = new Thread(this::loop, "aci-clipboard");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void set(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      throw new AciRuntimeException(AciRuntimeException.Reason.LIMIT,
          "clipboard_set text too large: " + bytes.length + " bytes (cap " + MAX_BYTES + ")");
    }
    call(() -> {
      X.XSetSelectionOwner(x.dpy, clipboard, window, Xlib.CURRENT_TIME);
      X.XSync(x.dpy, false);
      if (X.XGetSelectionOwner(x.dpy, clipboard) != window) {
        throw AciRuntimeException.environment("clipboard_set failed: could not take ownership of CLIPBOARD");
      }
      owned = bytes;
      return null;
    }, 2000);
  }

  @Override
  public String get() {
    CompletableFuture<String> result = new CompletableFuture<>();
    submit(() -> {
      long owner = X.XGetSelectionOwner(x.dpy, clipboard);
      if (owner == window && owned != null) {
        result.complete(new String(owned, StandardCharsets.UTF_8));
      } else if (owner == 0) {
        result.completeExceptionally(empty());
      } else {
        pending = new PendingGet(result, false, System.nanoTime());
        request(utf8);
      }
    });
    try {
      return result.get(2 * GET_TIMEOUT_MS + 500, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof AciRuntimeException a ? a : AciRuntimeException.environment(
          "clipboard_get failed: " + e.getCause());
    } catch (TimeoutException e) {
      throw new AciRuntimeException(AciRuntimeException.Reason.TIMEOUT,
          "clipboard_get timed out after " + GET_TIMEOUT_MS + "ms waiting for the selection owner");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw AciRuntimeException.environment("clipboard_get interrupted");
    }
  }

  private static AciRuntimeException empty() {
    return new AciRuntimeException(AciRuntimeException.Reason.NOT_FOUND,
        "clipboard is empty (no owner answered UTF8_STRING or STRING)");
  }

  private record PendingGet(CompletableFuture<String> result, boolean triedString, long startedNanos) {}

  private void request(long target) {
    X.XDeleteProperty(x.dpy, window, transfer);
    X.XConvertSelection(x.dpy, clipboard, target, transfer, window, Xlib.CURRENT_TIME);
    X.XFlush(x.dpy);
  }

  private <T> T call(Supplier<T> body, long timeoutMs) {
    CompletableFuture<T> f = new CompletableFuture<>();
    submit(() -> {
      try {
        f.complete(body.get());
      } catch (RuntimeException e) {
        f.completeExceptionally(e);
      }
    });
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof AciRuntimeException a ? a : AciRuntimeException.environment(
          "clipboard failed: " + e.getCause());
    } catch (TimeoutException | InterruptedException e) {
      throw AciRuntimeException.environment("clipboard thread did not answer");
    }
  }

  private void submit(Runnable r) {
    synchronized (wakeLock) {
      if (!running) {
        throw AciRuntimeException.environment("clipboard is closed (the runtime is stopping)");
      }
      commands.add(r);
      LibC.C.write(wake[1], new byte[] {1}, 1);
    }
  }

  private void loop() {
    try {
      serveUntilStopped();
    } catch (RuntimeException | Error e) {
      synchronized (wakeLock) {
        running = false; // a failed loop refuses commands like a closed one
      }
      throw e;
    } finally {
      shutDown();
    }
  }

  /**
   * On the loop thread, after it stopped: commands that were queued still run (they are short and
   * answer their callers), a read still waiting fails, then the window, the connection and the
   * pipe go. Nobody can queue more: {@link #submit} refuses once {@link #running} is false.
   */
  private void shutDown() {
    try {
      Runnable c;
      while ((c = commands.poll()) != null) {
        c.run();
      }
      if (pending != null) {
        pending.result.completeExceptionally(AciRuntimeException.environment(
            "clipboard is closed (the runtime is stopping)"));
        pending = null;
      }
      X.XDestroyWindow(x.dpy, window);
    } finally {
      x.close();
      synchronized (wakeLock) {
        LibC.C.close(wake[0]);
        LibC.C.close(wake[1]);
      }
    }
  }

  private void serveUntilStopped() {
    Memory fds = new Memory(16);
    Memory ev = new Memory(Xlib.XEVENT_SIZE);
    byte[] drain = new byte[64];
    int xfd = X.XConnectionNumber(x.dpy);
    while (running) {
      Runnable c;
      while ((c = commands.poll()) != null) {
        c.run();
      }
      while (X.XPending(x.dpy) > 0) {
        X.XNextEvent(x.dpy, ev);
        handle(ev);
      }
      if (pending != null && System.nanoTime() - pending.startedNanos > GET_TIMEOUT_MS * 1_000_000) {
        pending.result.completeExceptionally(new AciRuntimeException(AciRuntimeException.Reason.TIMEOUT,
            "clipboard_get timed out after " + GET_TIMEOUT_MS + "ms waiting for the selection owner"));
        pending = null;
      }
      // struct pollfd { int fd; short events; short revents; } x2, POLLIN = 1
      fds.setInt(0, xfd);
      fds.setShort(4, (short) 1);
      fds.setShort(6, (short) 0);
      fds.setInt(8, wake[0]);
      fds.setShort(12, (short) 1);
      fds.setShort(14, (short) 0);
      LibC.C.poll(fds, 2, pending == null ? 1000 : 50);
      if ((fds.getShort(14) & 1) != 0) {
        LibC.C.read(wake[0], drain, drain.length);
      }
    }
  }

  private void handle(Memory ev) {
    int type = ev.getInt(0);
    if (type == Xlib.SELECTION_REQUEST) {
      serve(ev);
    } else if (type == Xlib.SELECTION_CLEAR) {
      owned = null;
    } else if (type == Xlib.SELECTION_NOTIFY && pending != null) {
      receive(ev.getLong(56));
    }
  }

  /** Answers one paste request: TARGETS, UTF8_STRING/TEXT, or Latin-1 STRING. */
  private void serve(Memory req) {
    long requestor = req.getLong(40);
    long selection = req.getLong(48);
    long target = req.getLong(56);
    long property = req.getLong(64);
    long time = req.getLong(72);
    if (property == 0) {
      property = target; // obsolete clients
    }
    boolean answered = false;
    if (owned != null && selection == clipboard) {
      if (target == targets) {
        long[] list = {targets, utf8, x.atom("TEXT"), x.atom("STRING")};
        ByteBuffer b = ByteBuffer.allocate(list.length * 8).order(ByteOrder.nativeOrder());
        for (long a : list) {
          b.putLong(a);
        }
        X.XChangeProperty(x.dpy, requestor, property, x.atom("ATOM"), 32, Xlib.PROP_MODE_REPLACE, b.array(),
            list.length);
        answered = true;
      } else if (target == utf8 || target == x.atom("TEXT")) {
        X.XChangeProperty(x.dpy, requestor, property, utf8, 8, Xlib.PROP_MODE_REPLACE, owned, owned.length);
        answered = true;
      } else if (target == x.atom("STRING")) {
        byte[] latin1 = new String(owned, StandardCharsets.UTF_8).getBytes(StandardCharsets.ISO_8859_1);
        X.XChangeProperty(x.dpy, requestor, property, target, 8, Xlib.PROP_MODE_REPLACE, latin1, latin1.length);
        answered = true;
      }
    }
    Memory notify = new Memory(Xlib.XEVENT_SIZE);
    notify.clear();
    notify.setInt(0, Xlib.SELECTION_NOTIFY);
    notify.setInt(16, 1);
    notify.setPointer(24, x.dpy);
    notify.setLong(32, requestor);
    notify.setLong(40, selection);
    notify.setLong(48, target);
    notify.setLong(56, answered ? property : 0);
    notify.setLong(64, time);
    x.takeError();
    X.XSendEvent(x.dpy, requestor, false, 0, notify);
    X.XFlush(x.dpy);
  }

  private void receive(long property) {
    PendingGet p = pending;
    if (property == 0) {
      if (!p.triedString) {
        pending = new PendingGet(p.result, true, p.startedNanos);
        request(x.atom("STRING"));
      } else {
        pending = null;
        p.result.completeExceptionally(empty());
      }
      return;
    }
    pending = null;
    X11Connection.Property prop = x.property(window, transfer, 0, MAX_BYTES + 1);
    X.XDeleteProperty(x.dpy, window, transfer);
    X.XFlush(x.dpy);
    if (prop == null) {
      p.result.completeExceptionally(empty());
    } else if (prop.type() == incr) {
      p.result.completeExceptionally(new AciRuntimeException(AciRuntimeException.Reason.LIMIT,
          "clipboard_get: the owner offered an INCR transfer, which this runtime refuses (cap " + MAX_BYTES
              + " bytes)"));
    } else if (prop.data().length > MAX_BYTES) {
      p.result.completeExceptionally(new AciRuntimeException(AciRuntimeException.Reason.LIMIT,
          "clipboard_get text too large: more than " + MAX_BYTES + " bytes"));
    } else {
      p.result.complete(p.triedString ? new String(prop.data(), StandardCharsets.ISO_8859_1) : prop.utf8());
    }
  }

  /** Stops the loop thread and waits (bounded) for it to close its connection. Idempotent. */
  @Override
  public void close() {
    synchronized (wakeLock) {
      if (!running) {
        return;
      }
      running = false;
      LibC.C.write(wake[1], new byte[] {1}, 1);
    }
    try {
      thread.join(CLOSE_WAIT_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
