package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * libXdamage and the libXfixes region calls it needs. A Damage object on the root window collects
 * the screen areas drawn since it was last subtracted; an XFixes region carries them back to us.
 */
interface XDamage extends Library {
  XDamage D = Native.load("Xdamage", XDamage.class);
  /** One notify event when the damage turns from empty to non-empty; we never read the events. */
  int REPORT_NON_EMPTY = 3;

  boolean XDamageQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

  int XDamageQueryVersion(Pointer display, IntByReference major, IntByReference minor);

  long XDamageCreate(Pointer display, long drawable, int level);

  void XDamageSubtract(Pointer display, long damage, long repair, long parts);

  void XDamageDestroy(Pointer display, long damage);

  /** libXfixes. */
  interface Fixes extends Library {
    Fixes F = Native.load("Xfixes", Fixes.class);

    boolean XFixesQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

    int XFixesQueryVersion(Pointer display, IntByReference major, IntByReference minor);

    long XFixesCreateRegion(Pointer display, Pointer rectangles, int count);

    void XFixesDestroyRegion(Pointer display, long region);

    /** An array of XRectangle {short x, y; unsigned short width, height} to free with XFree. */
    Pointer XFixesFetchRegion(Pointer display, long region, IntByReference count);
  }
}
