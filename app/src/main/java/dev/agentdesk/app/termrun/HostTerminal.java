package dev.agentdesk.app.termrun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The terminal {@code agentdesk term run} was started in. When standard input is a terminal it is
 * switched to raw mode (no echo, no line editing, no signals: every key goes to the child as is)
 * and restored on close, also when the JVM exits abnormally. Its size comes from {@code stty size};
 * without a terminal, from {@code COLUMNS}/{@code LINES} or 80×24.
 */
final class HostTerminal implements AutoCloseable {
  private final boolean tty;
  private final String saved;
  private final Thread restoreOnExit;

  private HostTerminal(boolean tty, String saved) {
    this.tty = tty;
    this.saved = saved;
    this.restoreOnExit = new Thread(this::restore, "agentdesk-tty-restore");
    if (tty) {
      Runtime.getRuntime().addShutdownHook(restoreOnExit);
    }
  }

  /** Inspects standard input; puts it in raw mode when it is a terminal. */
  static HostTerminal attach() {
    String saved = stty("-g");
    if (saved == null || saved.isBlank()) {
      return new HostTerminal(false, null);
    }
    HostTerminal t = new HostTerminal(true, saved.strip());
    stty("raw", "-echo");
    return t;
  }

  boolean isTty() {
    return tty;
  }

  /** Columns and rows of the host terminal. */
  int[] size() {
    if (tty) {
      String s = stty("size");
      if (s != null) {
        String[] parts = s.strip().split("\\s+");
        if (parts.length == 2) {
          try {
            int rows = Integer.parseInt(parts[0]);
            int cols = Integer.parseInt(parts[1]);
            if (rows > 0 && cols > 0) {
              return new int[] {cols, rows};
            }
          } catch (NumberFormatException e) {
            // fall through to the environment
          }
        }
      }
    }
    return new int[] {envInt("COLUMNS", 80), envInt("LINES", 24)};
  }

  @Override
  public void close() {
    restore();
    if (tty) {
      try {
        Runtime.getRuntime().removeShutdownHook(restoreOnExit);
      } catch (IllegalStateException e) {
        // already shutting down: the hook restores
      }
    }
  }

  private synchronized void restore() {
    if (tty) {
      stty(saved);
    }
  }

  private static int envInt(String name, int fallback) {
    try {
      int v = Integer.parseInt(System.getenv().getOrDefault(name, ""));
      return v > 0 ? v : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /** Runs stty on our standard input; returns its output, or null when it fails (no terminal). */
  private static String stty(String... args) {
    String[] cmd = new String[args.length + 1];
    cmd[0] = "stty";
    System.arraycopy(args, 0, cmd, 1, args.length);
    try {
      Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.INHERIT)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return null;
      }
      return new String(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
