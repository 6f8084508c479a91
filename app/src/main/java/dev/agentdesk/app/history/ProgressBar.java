package dev.agentdesk.app.history;

import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.LineProblem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Import progress on stderr. On a terminal it is a bar redrawn in place at most ten times a
 * second; otherwise (a pipe, a log file) carriage returns would only make a mess, so it writes a
 * plain line at most every {@link #PLAIN_EVERY_NANOS} and one at the end.
 */
final class ProgressBar implements ImportListener {
  private static final int WIDTH = 30;
  private static final long PLAIN_EVERY_NANOS = 10_000_000_000L;
  private final PrintWriter err;
  private final boolean terminal;
  private long lastDraw;
  private int problems;
  private boolean drawn;
  private boolean finalShown;

  ProgressBar(PrintWriter err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
    this.lastDraw = System.nanoTime();
  }

  /** Whether this process's stderr is a terminal (not redirected to a file or a pipe). */
  static boolean stderrIsTerminal() {
    Path fd = Path.of("/proc/self/fd/2");
    if (Files.exists(fd, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      try {
        String target = Files.readSymbolicLink(fd).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }
    // Without /proc: the JDK's notion of an interactive session.
    return System.console() != null;
  }

  @Override
  public void started(int files, long bytes) {
    err.printf("importing %d files (%s)%n", files, mb(bytes));
    err.flush();
  }

  @Override
  public void progress(long done, long total, Path file) {
    long now = System.nanoTime();
    boolean complete = done >= total;
    if (!complete && now - lastDraw < (terminal ? 100_000_000L : PLAIN_EVERY_NANOS)) {
      return;
    }
    if (complete && finalShown) {
      return;
    }
    lastDraw = now;
    finalShown = complete;
    double f = total == 0 ? 1 : Math.min(1, (double) done / total);
    String skipped = problems == 0 ? "" : "  (" + problems + " lines skipped)";
    if (terminal) {
      int fill = (int) Math.round(f * WIDTH);
      err.printf("\r[%s%s] %3d%% %s / %s%s", "#".repeat(fill), ".".repeat(WIDTH - fill), Math.round(f * 100),
          mb(done), mb(total), skipped);
      drawn = true;
    } else {
      err.printf("imported %d%% (%s of %s)%s%n", Math.round(f * 100), mb(done), mb(total), skipped);
    }
    err.flush();
  }

  @Override
  public void problem(LineProblem problem) {
    problems++;
  }

  void finish() {
    if (drawn) {
      err.println();
      err.flush();
    }
  }

  private static String mb(long bytes) {
    return String.format("%.1f MB", bytes / 1_000_000.0);
  }
}
