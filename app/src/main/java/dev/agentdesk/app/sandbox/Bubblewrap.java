package dev.agentdesk.app.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The bubblewrap command line of a sandbox: the whole isolation model in one place (docs/sandbox.md,
 * ADR 0033).
 *
 * <p>New user, PID, IPC, UTS and cgroup namespaces, and a network namespace unless {@code network};
 * a root of tmpfs where only {@code /usr} (with the merged-/usr links), a short list of
 * {@code /etc} files, the fontconfig cache, the JVM's classpath and the sandbox's own three
 * folders are bound, the first ones read-only; a private {@code /tmp}, {@code /home/sandbox},
 * {@code /run} and {@code /dev/shm}; a clean environment. {@code --die-with-parent} and
 * {@code --unshare-pid}: when bwrap or its parent thread dies, the namespace's first process dies,
 * and with it the kernel kills every process of the namespace.
 */
final class Bubblewrap {
  static final String BWRAP = "bwrap";
  static final String HOME = "/home/sandbox";
  /** Private to the sandbox's /tmp: the session bus socket and XDG_RUNTIME_DIR. */
  static final String PRIVATE = "/tmp/.agentdesk";
  static final String BUS = "unix:path=" + PRIVATE + "/bus";
  /** The user and group id inside. */
  static final int INNER_ID = 1000;

  /**
   * /etc entries programs inside need: the dynamic linker's cache, names (passwd/group, hosts,
   * nsswitch), TLS roots, fonts, the JDK's configuration, X/GTK/openbox/D-Bus/Chromium defaults.
   */
  static final List<String> ETC = List.of("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "passwd",
      "group", "nsswitch.conf", "hosts", "host.conf", "resolv.conf", "localtime", "ssl", "ca-certificates",
      "fonts", "java-17-openjdk", "X11", "xdg", "gtk-3.0", "dbus-1", "chromium", "chromium.d", "machine-id",
      "mime.types", "pulse", "mtab");

  private Bubblewrap() {}

  /**
   * @param dir the sandbox's folder on the host
   * @param classpath the guest JVM's classpath entries (bound read-only where they are)
   * @param java the java executable
   */
  static List<String> argv(SandboxSpec spec, Path dir, List<Path> classpath, Path java) {
    List<String> a = new ArrayList<>(List.of(BWRAP, "--die-with-parent", "--new-session", "--unshare-user",
        "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"));
    if (!spec.network()) {
      a.add("--unshare-net");
    }
    // One unprivileged uid inside, whoever starts it: root outside is not root inside (programs that
    // act differently for root, such as xterm's setgroups or Chromium's refusal of its own sandbox,
    // behave as for a user).
    a.addAll(List.of("--uid", Integer.toString(INNER_ID), "--gid", Integer.toString(INNER_ID)));
    a.addAll(List.of("--hostname", "agentdesk-sandbox", "--cap-drop", "ALL"));
    a.addAll(List.of("--ro-bind", "/usr", "/usr"));
    for (String top : List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32")) {
      Path p = Path.of("/", top);
      if (Files.isSymbolicLink(p)) {
        try {
          a.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), p.toString()));
        } catch (java.io.IOException e) {
          // unreadable link: leave it out
        }
      } else if (Files.isDirectory(p)) {
        a.addAll(List.of("--ro-bind", p.toString(), p.toString()));
      }
    }
    for (String e : ETC) {
      a.addAll(List.of("--ro-bind-try", "/etc/" + e, "/etc/" + e));
    }
    a.addAll(List.of("--ro-bind-try", "/var/cache/fontconfig", "/var/cache/fontconfig",
        "--ro-bind-try", "/var/lib/dbus/machine-id", "/var/lib/dbus/machine-id"));
    a.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm", "--tmpfs", "/tmp",
        "--tmpfs", "/run", "--tmpfs", "/home", "--dir", HOME, "--dir", "/var/tmp"));
    Set<String> bound = new LinkedHashSet<>();
    Path javaHome = java.toAbsolutePath().getParent().getParent();
    if (!javaHome.startsWith("/usr")) {
      bound.add(javaHome.toString());
    }
    for (Path p : classpath) {
      Path abs = p.toAbsolutePath().normalize();
      if (!abs.startsWith("/usr") && Files.exists(abs)) {
        bound.add(abs.toString());
      }
    }
    for (String p : bound) {
      a.addAll(List.of("--ro-bind", p, p));
    }
    a.addAll(List.of("--dir", SandboxDirs.GUEST_BASE,
        "--ro-bind", dir.resolve(SandboxDirs.SPEC).toString(), SandboxDirs.GUEST_SPEC,
        "--ro-bind", dir.resolve(SandboxDirs.TOKEN).toString(), SandboxDirs.GUEST_TOKEN,
        "--bind", dir.resolve(SandboxDirs.DOOR).toString(), SandboxDirs.GUEST_DOOR,
        "--bind", dir.resolve(SandboxDirs.LOGS).toString(), SandboxDirs.GUEST_LOGS));
    if (spec.record() != null) {
      a.addAll(List.of("--bind", spec.record(), SandboxDirs.GUEST_RECORDING));
    }
    a.addAll(List.of("--chdir", HOME, "--clearenv"));
    env(a, "HOME", HOME);
    env(a, "USER", "sandbox");
    env(a, "LOGNAME", "sandbox");
    env(a, "PATH", "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin");
    env(a, "LANG", "C.UTF-8");
    env(a, "TMPDIR", "/tmp");
    env(a, "DISPLAY", ":" + spec.display());
    env(a, "DBUS_SESSION_BUS_ADDRESS", BUS);
    env(a, "XDG_RUNTIME_DIR", PRIVATE + "/xdg");
    // GTK and Qt talk to the accessibility bus only when asked; the runtime's observe needs them to
    env(a, "GTK_A11Y", "atspi");
    env(a, "ACCESSIBILITY_ENABLED", "1");
    env(a, "QT_ACCESSIBILITY", "1");
    env(a, "NO_AT_BRIDGE", "0");
    env(a, "GDK_BACKEND", "x11");
    env(a, "GSETTINGS_BACKEND", "memory");
    a.add("--");
    a.add(java.toString());
    a.add("-XX:+UseSerialGC");
    a.add("-Xss512k");
    a.add("-cp");
    a.add(String.join(":", classpath.stream().map(p -> p.toAbsolutePath().normalize().toString()).toList()));
    a.addAll(List.of("dev.agentdesk.app.Main", "sandbox", "guest"));
    return a;
  }

  private static void env(List<String> a, String k, String v) {
    a.addAll(List.of("--setenv", k, v));
  }
}
