package dev.agentdesk.terminal.session.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;

/** The one libc call pty4j does not offer: signalling a whole process group. */
public final class Posix {
  public static final int SIGHUP = 1;
  public static final int SIGKILL = 9;
  public static final int SIGTERM = 15;

  private interface LibC extends Library {
    int kill(int pid, int sig);
  }

  private static final LibC LIBC = Native.load("c", LibC.class);

  private Posix() {}

  /**
   * Sends {@code signal} to every process in group {@code pgid}. pty4j makes each child a session
   * leader, so its pid is also its process group id. Returns false when no such group exists any
   * more (already gone), which callers treat as success.
   */
  public static boolean killGroup(long pgid, int signal) {
    if (pgid <= 1) {
      throw new IllegalArgumentException("refusing to signal process group " + pgid);
    }
    return LIBC.kill((int) -pgid, signal) == 0;
  }
}
