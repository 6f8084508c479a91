package dev.agentdesk.app.termrun;

/**
 * SIGWINCH delivery: the JDK has no public API for it, so this uses {@code sun.misc.Signal} (in
 * the {@code jdk.unsupported} module, present in every JDK 17 build). Where the signal cannot be
 * installed, resizes are simply not forwarded.
 */
final class WindowChanges {
  private WindowChanges() {}

  static boolean forward(Runnable onChange) {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("WINCH"), sig -> onChange.run());
      return true;
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      return false;
    }
  }
}
