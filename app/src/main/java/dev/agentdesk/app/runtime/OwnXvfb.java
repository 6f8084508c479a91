package dev.agentdesk.app.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An Xvfb the runtime starts for itself ({@code --xvfb WxH}) on a display number Xvfb picks
 * ({@code -displayfd}), stopped when the runtime exits.
 *
 * <p>The runtime stops it in {@link #close} after its own X connections are closed. It starts
 * through two util-linux tools that exec in place (so the pid is Xvfb's): {@code setsid}, so that
 * a terminal's Ctrl-C, which goes to the whole foreground process group, reaches only the runtime
 * (which then stops in order) and not the server under it; and {@code setpriv --pdeathsig TERM},
 * so that it cannot outlive a runtime that dies without closing it (SIGKILL, a crash): the kernel
 * sends it SIGTERM when the thread that started it ends. Start it from the thread that owns the
 * runtime (the command's main thread), not from a pool thread that may retire early.
 */
public final class OwnXvfb implements AutoCloseable {
  private static final Path SETSID = Path.of("/usr/bin/setsid");
  private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

  private final Process process;
  private final String display;
  private boolean closed; // guarded by this

  private OwnXvfb(Process process, String display) {
    this.process = process;
    this.display = display;
  }

  public static OwnXvfb start(int width, int height) throws IOException, InterruptedException {
    Path fd = Files.createTempFile("agentdesk-xvfb", ".display");
    try {
      List<String> cmd = new ArrayList<>();
      if (Files.isExecutable(SETSID)) {
        cmd.addAll(List.of(SETSID.toString(), "--"));
      }
      if (Files.isExecutable(SETPRIV)) {
        cmd.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "TERM", "--"));
      }
      cmd.addAll(List.of("Xvfb", "-displayfd", "1", "-screen", "0", width + "x" + height + "x24", "-nolisten",
          "tcp", "-noreset", "+extension", "XTEST", "+extension", "MIT-SHM"));
      ProcessBuilder pb = new ProcessBuilder(cmd);
      pb.redirectOutput(fd.toFile());
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process p;
      try {
        p = pb.start();
      } catch (IOException e) {
        throw new IOException("cannot start Xvfb (install package xvfb): " + e.getMessage(), e);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (System.nanoTime() < deadline) {
        String n = Files.readString(fd).trim();
        if (!n.isEmpty() && n.chars().allMatch(Character::isDigit)
            && Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
          return new OwnXvfb(p, ":" + n);
        }
        if (!p.isAlive()) {
          throw new IOException(p.exitValue() == 127 && !cmd.get(0).equals("Xvfb")
              ? "cannot start Xvfb (install package xvfb): not found on PATH"
              : "Xvfb exited with status " + p.exitValue() + " before it was ready");
        }
        Thread.sleep(20);
      }
      p.destroyForcibly();
      throw new IOException("Xvfb did not report a display within 15 s");
    } finally {
      Files.deleteIfExists(fd);
    }
  }

  public String display() {
    return display;
  }

  /** The server's process id (setsid and setpriv exec Xvfb in place, so it is Xvfb's). */
  public long pid() {
    return process.pid();
  }

  /**
   * SIGTERM (Xvfb removes its socket and lock file), SIGKILL after a second, and waits for the
   * exit. Idempotent; call it after the X connections to this display are closed, because Xlib
   * ends the process when a connection's server goes away.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    process.destroy();
    try {
      if (!process.waitFor(1, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(1, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** SIGKILL without waiting: the last resort of a stop that ran out of time. */
  public void kill() {
    process.destroyForcibly();
  }
}
