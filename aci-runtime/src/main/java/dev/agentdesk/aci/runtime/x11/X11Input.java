package dev.agentdesk.aci.runtime.x11;

import static dev.agentdesk.aci.runtime.x11.XTest.X;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.InputBackend;
import dev.agentdesk.aci.runtime.desktop.Keysyms;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * XTEST input. Keys are found in the server's keyboard map; a keysym the map lacks (any character
 * beyond the layout, e.g. {@code ☃} or {@code 日}) is bound to a spare keycode (one with no
 * symbols) just before it is typed. Bindings stay until the runtime closes — clients re-read the
 * keymap asynchronously after a change, so undoing a binding right after the key event could make
 * them see the old map — and spare codes are recycled least-recently-used. Original maps of the
 * borrowed keycodes are restored on close.
 */
final class X11Input implements InputBackend {
  /** After rebinding a keycode that was just typed, let clients catch up before reusing it. */
  private static final long REBIND_SETTLE_MS = 40;

  private final X11Connection x;
  private final DisplayGuard guard;
  private final int minKeycode;
  private final int perKeycode;
  private final long[][] map;
  // The keymap state below is read and changed only inside the guard.
  private final Map<Long, int[]> lookup = new HashMap<>();
  private final Deque<Integer> spares = new ArrayDeque<>();
  private final Map<Integer, Long> borrowed = new HashMap<>();
  /** Pointer buttons pressed and not yet released (mouse_down without mouse_up): released on close. */
  private final Set<Integer> buttonsDown = new HashSet<>();
  private long lastRebindTypedAt;

  /** Runs on the thread that opens the desktop, before any other thread can reach the connection. */
  X11Input(X11Connection x, DisplayGuard guard) {
    this.x = x;
    this.guard = guard;
    IntByReference min = new IntByReference();
    IntByReference max = new IntByReference();
    Xlib.X.XDisplayKeycodes(x.dpy, min, max);
    minKeycode = min.getValue();
    int count = max.getValue() - minKeycode + 1;
    IntByReference per = new IntByReference();
    Pointer syms = Xlib.X.XGetKeyboardMapping(x.dpy, (byte) minKeycode, count, per);
    perKeycode = per.getValue();
    map = new long[count][perKeycode];
    for (int i = 0; i < count; i++) {
      boolean empty = true;
      for (int j = 0; j < perKeycode; j++) {
        map[i][j] = syms.getLong((long) (i * perKeycode + j) * Native.LONG_SIZE);
        empty &= map[i][j] == 0;
      }
      if (empty) {
        spares.add(minKeycode + i);
      }
    }
    Xlib.X.XFree(syms);
    // Prefer the lowest level: a keysym on level 0 of any keycode beats level 1 of an earlier one.
    for (int level = Math.min(1, perKeycode - 1); level >= 0; level--) {
      for (int i = count - 1; i >= 0; i--) {
        long ks = map[i][level];
        if (ks != 0) {
          lookup.put(ks, new int[] {minKeycode + i, level});
        }
      }
    }
  }

  @Override
  public void motion(int px, int py) {
    guard.run(() -> X.XTestFakeMotionEvent(x.dpy, x.screen, px, py, 0));
  }

  @Override
  public void button(int button, boolean press) {
    guard.run(() -> {
      X.XTestFakeButtonEvent(x.dpy, button, press, 0);
      if (press) {
        buttonsDown.add(button);
      } else {
        buttonsDown.remove(button);
      }
    });
  }

  @Override
  public void keyCombo(List<Long> modifierKeysyms, long keysym) {
    guard.run(() -> {
      List<Integer> mods = new ArrayList<>();
      for (long m : modifierKeysyms) {
        mods.add(keycodeFor(m)[0]);
      }
      int[] key = keycodeFor(keysym);
      boolean implicitShift = key[1] == 1 && !modifierKeysyms.contains(Keysyms.SHIFT_L);
      int shift = implicitShift ? keycodeFor(Keysyms.SHIFT_L)[0] : 0;
      for (int m : mods) {
        X.XTestFakeKeyEvent(x.dpy, m, true, 0);
      }
      if (implicitShift) {
        X.XTestFakeKeyEvent(x.dpy, shift, true, 0);
      }
      X.XTestFakeKeyEvent(x.dpy, key[0], true, 0);
      X.XTestFakeKeyEvent(x.dpy, key[0], false, 0);
      if (implicitShift) {
        X.XTestFakeKeyEvent(x.dpy, shift, false, 0);
      }
      for (int i = mods.size() - 1; i >= 0; i--) {
        X.XTestFakeKeyEvent(x.dpy, mods.get(i), false, 0);
      }
      Xlib.X.XSync(x.dpy, false);
    });
  }

  @Override
  public void typeKeysyms(List<Long> keysyms) {
    guard.run(() -> {
      int shift = keycodeFor(Keysyms.SHIFT_L)[0];
      int typed = 0;
      for (long ks : keysyms) {
        // A long text holds the connection for a while: a stopping runtime or a closed session
        // (interrupt) ends it between two keys, never between a key's press and its release.
        if (guard.closing() || Thread.currentThread().isInterrupted()) {
          Xlib.X.XSync(x.dpy, false);
          throw AciRuntimeException.environment("type_text stopped after " + typed + " of " + keysyms.size()
              + " keys: the session or the runtime is closing");
        }
        typed++;
        int[] key = keycodeFor(ks);
        if (key[1] == 1) {
          X.XTestFakeKeyEvent(x.dpy, shift, true, 0);
        }
        X.XTestFakeKeyEvent(x.dpy, key[0], true, 0);
        X.XTestFakeKeyEvent(x.dpy, key[0], false, 0);
        if (key[1] == 1) {
          X.XTestFakeKeyEvent(x.dpy, shift, false, 0);
        }
        if (borrowed.containsKey(key[0])) {
          Xlib.X.XSync(x.dpy, false);
          lastRebindTypedAt = System.nanoTime();
        }
      }
      Xlib.X.XSync(x.dpy, false);
    });
  }

  /** [keycode, level] for a keysym, binding a spare keycode when the map lacks it. Caller is inside the guard. */
  private int[] keycodeFor(long keysym) {
    int[] found = lookup.get(keysym);
    if (found != null) {
      if (borrowed.containsKey(found[0])) {
        // most recently used goes to the back of the recycling queue
        spares.remove(found[0]);
        spares.addLast(found[0]);
      }
      return found;
    }
    Integer code = spares.pollFirst();
    if (code == null) {
      throw AciRuntimeException.environment(String.format("no keycode for keysym 0x%x", keysym));
    }
    Long previous = borrowed.put(code, keysym);
    if (previous != null) {
      lookup.remove(previous);
      long since = (System.nanoTime() - lastRebindTypedAt) / 1_000_000;
      if (since < REBIND_SETTLE_MS) {
        sleep(REBIND_SETTLE_MS - since);
      }
    }
    long[] syms = new long[perKeycode];
    syms[0] = keysym;
    if (perKeycode > 1) {
      syms[1] = keysym;
    }
    Xlib.X.XChangeKeyboardMapping(x.dpy, code, perKeycode, syms, 1);
    Xlib.X.XSync(x.dpy, false);
    spares.addLast(code);
    int[] entry = {code, 0};
    lookup.put(keysym, entry);
    return entry;
  }

  @Override
  public int[] pointer() {
    return guard.call(() -> {
      LongByReference root = new LongByReference();
      LongByReference child = new LongByReference();
      IntByReference rx = new IntByReference();
      IntByReference ry = new IntByReference();
      IntByReference wx = new IntByReference();
      IntByReference wy = new IntByReference();
      IntByReference mask = new IntByReference();
      Xlib.X.XQueryPointer(x.dpy, x.root, root, child, rx, ry, wx, wy, mask);
      return new int[] {rx.getValue(), ry.getValue()};
    });
  }

  @Override
  public void sync() {
    guard.run(() -> Xlib.X.XSync(x.dpy, false));
  }

  /**
   * Leaves the server's input as the runtime found it: buttons a client pressed and never
   * released go up, and every borrowed keycode gets its empty map back (the server keeps a
   * client's keymap changes after the client disconnects). Called once, by the desktop's close,
   * under the guard and after every other user of the connection has stopped.
   */
  void restore() {
    for (int b : buttonsDown) {
      X.XTestFakeButtonEvent(x.dpy, b, false, 0);
    }
    buttonsDown.clear();
    for (int code : borrowed.keySet()) {
      Xlib.X.XChangeKeyboardMapping(x.dpy, code, perKeycode, new long[perKeycode], 1);
    }
    borrowed.clear();
    Xlib.X.XSync(x.dpy, false);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
