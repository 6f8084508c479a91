package dev.agentdesk.aci.runtime.desktop;

import java.util.List;
import java.util.Optional;

/** Top-level windows: listing, geometry, activation. */
public interface WindowBackend {
  List<WindowInfo> list();

  /** The focused top-level window, if any. */
  Optional<Long> active();

  /** Geometry of any window by id in root coordinates, or empty when no such window exists. */
  Optional<Rect> geometry(long windowId);

  /** Raises and focuses the window; throws NOT_FOUND when it does not exist. */
  void activate(long windowId);

  /** Whether an EWMH window manager is running. */
  boolean windowManagerPresent();
}
