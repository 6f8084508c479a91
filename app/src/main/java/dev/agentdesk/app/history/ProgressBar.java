package dev.agentdesk.app.history;

import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.LineProblem;
import java.io.PrintWriter;
import java.nio.file.Path;

/** An import progress bar on stderr, redrawn in place at most ten times a second. */
final class ProgressBar implements ImportListener {
  private static final int WIDTH = 30;
  private final PrintWriter err;
  private long lastDraw;
  private int problems;
  private boolean drawn;

  ProgressBar(PrintWriter err) {
    this.err = err;
  }

  @Override
  public void started(int files, long bytes) {
    err.printf("importing %d files (%s)%n", files, mb(bytes));
    err.flush();
  }

  @Override
  public void progress(long done, long total, Path file) {
    long now = System.nanoTime();
    if (done < total && now - lastDraw < 100_000_000L) {
      return;
    }
    lastDraw = now;
    double f = total == 0 ? 1 : Math.min(1, (double) done / total);
    int fill = (int) Math.round(f * WIDTH);
    err.printf("\r[%s%s] %3d%% %s / %s%s", "#".repeat(fill), ".".repeat(WIDTH - fill), Math.round(f * 100), mb(done),
        mb(total), problems == 0 ? "" : "  (" + problems + " lines skipped)");
    err.flush();
    drawn = true;
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
