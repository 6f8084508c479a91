package dev.agentdesk.app.sandbox;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * Landlock scopes (Linux 6.12+, ABI 6) for the thread that starts a sandbox's bubblewrap: from then
 * on that thread and everything it spawns can neither connect to an abstract unix socket made
 * outside the sandbox (the host's X displays listen on {@code @/tmp/.X11-unix/X<n>}, and abstract
 * names live in the network namespace, which {@code --network} shares) nor signal a process
 * outside it. Landlock restricts the calling thread only, so the caller dedicates a thread to it
 * and keeps that thread alive as long as the sandbox ({@code --die-with-parent} ties bwrap to the
 * thread that spawned it).
 */
public final class Landlock {
  private static final long SYS_LANDLOCK_CREATE_RULESET = 444;
  private static final long SYS_LANDLOCK_RESTRICT_SELF = 446;
  private static final int LANDLOCK_CREATE_RULESET_VERSION = 1;
  private static final long SCOPE_ABSTRACT_UNIX_SOCKET = 1;
  private static final long SCOPE_SIGNAL = 2;
  private static final int PR_SET_NO_NEW_PRIVS = 38;
  /** The ABI that brought scopes. */
  public static final int SCOPES_ABI = 6;

  private Landlock() {}

  interface LibC extends Library {
    long syscall(long number, Object... args);

    int prctl(int option, long a2, long a3, long a4, long a5);

    int close(int fd);
  }

  private static LibC libc() {
    return LibcHolder.C;
  }

  private static final class LibcHolder {
    static final LibC C = Native.load("c", LibC.class);
  }

  /** The kernel's Landlock ABI version, or 0 when Landlock is off or not x86-64/aarch64 syscall numbers. */
  public static int abi() {
    String arch = System.getProperty("os.arch");
    if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
      return 0; // the syscall numbers above are the generic ones these two share
    }
    long v = libc().syscall(SYS_LANDLOCK_CREATE_RULESET, null, 0L, LANDLOCK_CREATE_RULESET_VERSION);
    return v < 0 ? 0 : (int) v;
  }

  /**
   * Restricts the calling thread (and its future children) to its own abstract unix sockets and
   * signals. Throws when the kernel cannot: the caller decides whether that is fatal.
   */
  static void restrictThisThread() {
    if (abi() < SCOPES_ABI) {
      throw new IllegalStateException("Landlock scopes need Linux 6.12 or later with Landlock enabled (ABI "
          + abi() + ")");
    }
    LibC c = libc();
    if (c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
      throw new IllegalStateException("prctl(PR_SET_NO_NEW_PRIVS) failed: errno " + Native.getLastError());
    }
    // struct landlock_ruleset_attr { u64 handled_access_fs; u64 handled_access_net; u64 scoped; }
    Memory attr = new Memory(24);
    attr.clear();
    attr.setLong(16, SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL);
    long fd = c.syscall(SYS_LANDLOCK_CREATE_RULESET, attr, 24L, 0);
    if (fd < 0) {
      throw new IllegalStateException("landlock_create_ruleset failed: errno " + Native.getLastError());
    }
    long r = c.syscall(SYS_LANDLOCK_RESTRICT_SELF, (int) fd, 0);
    int errno = Native.getLastError();
    c.close((int) fd);
    if (r != 0) {
      throw new IllegalStateException("landlock_restrict_self failed: errno " + errno);
    }
  }
}
