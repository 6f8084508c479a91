package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The slice of libX11 the runtime uses, bound with JNA. XIDs (Window, Atom, KeySym, Time) are C
 * {@code unsigned long}, which is 64 bits on the LP64 Linux targets this runtime supports, so they
 * map to Java {@code long}.
 */
interface Xlib extends Library {
  Xlib X = Native.load("X11", Xlib.class);

  int ZPIXMAP = 2;
  long ALL_PLANES = -1L;
  int IS_VIEWABLE = 2;
  int PROP_MODE_REPLACE = 0;
  long CURRENT_TIME = 0;
  int REVERT_TO_PARENT = 2;
  long SUBSTRUCTURE_NOTIFY_MASK = 1L << 19;
  long SUBSTRUCTURE_REDIRECT_MASK = 1L << 20;
  long PROPERTY_CHANGE_MASK = 1L << 22;
  int SELECTION_CLEAR = 29;
  int SELECTION_REQUEST = 30;
  int SELECTION_NOTIFY = 31;
  int CLIENT_MESSAGE = 33;
  /** sizeof(XEvent) on LP64: a union padded to 24 longs. */
  int XEVENT_SIZE = 192;

  /** int (*XErrorHandler)(Display*, XErrorEvent*). */
  interface ErrorHandler extends Callback {
    int handle(Pointer display, Pointer errorEvent);
  }

  int XInitThreads();

  Pointer XOpenDisplay(String name);

  int XCloseDisplay(Pointer display);

  ErrorHandler XSetErrorHandler(ErrorHandler handler);

  int XDefaultScreen(Pointer display);

  long XRootWindow(Pointer display, int screen);

  int XDisplayWidth(Pointer display, int screen);

  int XDisplayHeight(Pointer display, int screen);

  Pointer XDefaultVisual(Pointer display, int screen);

  int XDefaultDepth(Pointer display, int screen);

  int XConnectionNumber(Pointer display);

  int XFlush(Pointer display);

  int XSync(Pointer display, boolean discard);

  int XFree(Pointer data);

  int XPending(Pointer display);

  int XNextEvent(Pointer display, Pointer event);

  long XInternAtom(Pointer display, String name, boolean onlyIfExists);

  Pointer XGetAtomName(Pointer display, long atom);

  boolean XQueryPointer(Pointer display, long window, LongByReference root, LongByReference child,
      IntByReference rootX, IntByReference rootY, IntByReference winX, IntByReference winY, IntByReference mask);

  int XDisplayKeycodes(Pointer display, IntByReference min, IntByReference max);

  Pointer XGetKeyboardMapping(Pointer display, byte firstKeycode, int count, IntByReference keysymsPerKeycode);

  int XChangeKeyboardMapping(Pointer display, int firstKeycode, int keysymsPerKeycode, long[] keysyms, int count);

  Pointer XGetImage(Pointer display, long drawable, int x, int y, int width, int height, long planeMask,
      int format);

  int XDestroyImage(Pointer image);

  int XGetWindowProperty(Pointer display, long window, long property, long offset, long length, boolean delete,
      long reqType, LongByReference actualType, IntByReference actualFormat, LongByReference nitems,
      LongByReference bytesAfter, PointerByReference prop);

  int XChangeProperty(Pointer display, long window, long property, long type, int format, int mode, byte[] data,
      int nelements);

  int XDeleteProperty(Pointer display, long window, long property);

  int XQueryTree(Pointer display, long window, LongByReference root, LongByReference parent,
      PointerByReference children, IntByReference count);

  int XGetWindowAttributes(Pointer display, long window, Memory attributes);

  boolean XTranslateCoordinates(Pointer display, long src, long dest, int srcX, int srcY, IntByReference destX,
      IntByReference destY, LongByReference child);

  int XSendEvent(Pointer display, long window, boolean propagate, long eventMask, Pointer event);

  int XRaiseWindow(Pointer display, long window);

  int XMoveWindow(Pointer display, long window, int x, int y);

  int XSetInputFocus(Pointer display, long window, int revertTo, long time);

  int XGetInputFocus(Pointer display, LongByReference focus, IntByReference revertTo);

  long XCreateSimpleWindow(Pointer display, long parent, int x, int y, int w, int h, int border, long borderPixel,
      long background);

  int XDestroyWindow(Pointer display, long window);

  int XMapWindow(Pointer display, long window);

  int XSelectInput(Pointer display, long window, long mask);

  int XSetSelectionOwner(Pointer display, long selection, long owner, long time);

  long XGetSelectionOwner(Pointer display, long selection);

  int XConvertSelection(Pointer display, long selection, long target, long property, long requestor, long time);
}
