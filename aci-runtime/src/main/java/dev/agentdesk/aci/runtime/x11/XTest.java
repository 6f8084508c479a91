package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/** libXtst: synthetic input that the server treats as real device events. */
interface XTest extends Library {
  XTest X = Native.load("Xtst", XTest.class);

  boolean XTestQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase,
      IntByReference major, IntByReference minor);

  int XTestFakeMotionEvent(Pointer display, int screen, int x, int y, long delay);

  int XTestFakeButtonEvent(Pointer display, int button, boolean press, long delay);

  int XTestFakeKeyEvent(Pointer display, int keycode, boolean press, long delay);
}
