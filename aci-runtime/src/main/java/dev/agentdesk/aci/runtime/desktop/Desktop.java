package dev.agentdesk.aci.runtime.desktop;

/** The desktop a runtime drives: one object per display, closed with the runtime. */
public interface Desktop extends AutoCloseable {
  /** The display's name, e.g. {@code :1}. */
  String name();

  InputBackend input();

  CaptureBackend capture();

  WindowBackend windows();

  ClipboardBackend clipboard();

  /** Whether the X server answers a round trip right now. */
  boolean alive();

  @Override
  void close();
}
