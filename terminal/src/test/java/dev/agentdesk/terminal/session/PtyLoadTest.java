package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Many sessions printing fast at once: no line is lost from any durable log, the heap stays
 * bounded. The short run is part of every build; the full one (50 sessions × 1 MB/s × 60 s) runs
 * with {@code -Preliability} and from {@code ./bench pty}, which reads its report.
 */
class PtyLoadTest {

  @Test
  void eightSessionsAtQuarterMegabyteEachLoseNothing() throws Exception {
    PtyLoad.Result r = PtyLoad.run(8, 250_000, 3);
    System.out.println(r.markdown());
    assertThat(r.linesWritten()).isGreaterThan(8 * 1_000);
    assertThat(r.linesLost()).isZero();
    assertThat(r.outOfOrder()).isZero();
    assertThat(r.maxLiveHeapBytes()).isLessThan(256L << 20);
  }

  @Test
  @Tag("slow")
  void fiftySessionsAtOneMegabyteEachForAMinuteLoseNothing() throws Exception {
    PtyLoad.Result r = PtyLoad.run(50, 1_000_000, 60);
    String report = System.getProperty("pty.load.report");
    if (report != null) {
      Files.writeString(Path.of(report), r.markdown() + "\n");
    }
    System.out.println(r.markdown());
    assertThat(r.linesLost()).isZero();
    assertThat(r.outOfOrder()).isZero();
    assertThat(r.maxLiveHeapBytes()).as("live heap for 50 sessions with full durable logs").isLessThan(768L << 20);
  }
}
