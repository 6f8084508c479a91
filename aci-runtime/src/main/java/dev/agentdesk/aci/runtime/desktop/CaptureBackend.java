package dev.agentdesk.aci.runtime.desktop;

import dev.agentdesk.aci.runtime.image.RgbImage;

/** Reads pixels from the screen. Captures never contain the cursor. */
public interface CaptureBackend {
  /** The whole screen in global coordinates. */
  Rect screen();

  /** The pixels of {@code region}, which must lie inside {@link #screen()}. */
  RgbImage capture(Rect region);

  /** Whether the fast shared-memory path is in use (false means the XGetImage fallback). */
  boolean sharedMemory();
}
