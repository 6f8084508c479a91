package dev.agentdesk.app.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The progress display: a redrawn bar on a terminal, plain lines anywhere else. */
class ProgressBarTest {
  private static String drive(boolean terminal) {
    StringWriter sw = new StringWriter();
    ProgressBar bar = new ProgressBar(new PrintWriter(sw), terminal);
    bar.started(2, 2_000_000);
    bar.progress(1_000_000, 2_000_000, Path.of("a.jsonl"));
    bar.progress(2_000_000, 2_000_000, Path.of("b.jsonl"));
    bar.progress(2_000_000, 2_000_000, Path.of("b.jsonl"));
    bar.finish();
    return sw.toString();
  }

  @Test
  void onATerminalTheBarIsRedrawnInPlace() {
    String out = drive(true);
    assertThat(out).contains("\r[").contains("] 100% 2.0 MB / 2.0 MB").endsWith(System.lineSeparator());
  }

  @Test
  void elsewhereOnlyPlainLinesAreWrittenAndTheEndOnce() {
    String out = drive(false);
    assertThat(out).doesNotContain("\r").doesNotContain("[#");
    // the half-way call comes too soon after the start for a periodic line; the end is always written, once
    assertThat(out.lines()).containsExactly("importing 2 files (2.0 MB)", "imported 100% (2.0 MB of 2.0 MB)");
  }

  @Test
  void aPipeIsNotATerminal() {
    // surefire connects the test JVM's stderr to a pipe
    assertThat(ProgressBar.stderrIsTerminal()).isFalse();
  }
}
