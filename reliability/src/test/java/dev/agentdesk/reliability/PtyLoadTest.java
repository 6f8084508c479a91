package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionSpec;
import dev.agentdesk.terminal.vt.LogLine;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many PTY sessions, each printing numbered lines at up to 1 MB/s (50 × 60 s under -Preliability):
 * every byte the children wrote is read, and the durable log receives every line that scrolled
 * off, in order, each exactly once (checked line number by line number); the heap stays bounded.
 */
class PtyLoadTest {
  private static final int LINE_BYTES = 100;

  @Test
  void noLogLineIsLostUnderLoad() throws Exception {
    int sessions = Size.pick(6, 50);
    int seconds = Size.pick(4, 60);
    int rate = 1_000_000;
    Path firehose = Path.of(resource("firehose.py"));
    List<PtySession> running = new ArrayList<>();
    List<Collector> collectors = new ArrayList<>();
    long heapPeak = 0;
    double loadBefore = loadAverage();
    long started = System.nanoTime();
    long finished;
    try {
      for (int i = 0; i < sessions; i++) {
        Collector c = new Collector();
        collectors.add(c);
        running.add(PtySession.start(SessionSpec.of("python3", firehose.toString(), String.valueOf(rate),
            String.valueOf(seconds)).withSize(200, 50), List.of(c)));
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(seconds * 4L + 60).toNanos();
      for (PtySession s : running) {
        OptionalInt exit;
        while ((exit = s.waitFor(Duration.ofSeconds(1))).isEmpty()) {
          heapPeak = Math.max(heapPeak, usedHeap());
          assertThat(System.nanoTime()).as("sessions finish").isLessThan(deadline);
        }
        assertThat(exit.getAsInt()).isZero();
      }
      finished = System.nanoTime();
      heapPeak = Math.max(heapPeak, usedHeap());
    } finally {
      running.forEach(PtySession::close);
    }
    long totalLines = 0;
    long totalBytes = 0;
    for (int i = 0; i < sessions; i++) {
      Collector c = collectors.get(i);
      assertThat(c.gaps).as("session %d: log gaps or repeats (first at %s)", i, c.firstGap).isZero();
      // The PTY turns each \n into \r\n: every byte read belongs to a whole line.
      assertThat(c.bytes.get() % (LINE_BYTES + 1)).as("session %d read only whole lines", i).isZero();
      long written = c.bytes.get() / (LINE_BYTES + 1);
      // Lines still on the visible screen at exit have not scrolled into the log: fewer than the rows.
      assertThat(written - c.nextExpected).as("session %d lines not in the log", i).isBetween(0L, 50L);
      // The rate is a target: PTY back-pressure slows a writer whose session falls behind (nothing is
      // dropped), so what a shared machine sustains is reported, not asserted.
      assertThat(c.nextExpected).as("session %d logged lines", i).isPositive();
      totalLines += c.nextExpected;
      totalBytes += c.bytes.get();
    }
    assertThat(heapPeak).as("heap in use after GC").isLessThan(1024L * 1024 * 1024);
    // Achieved = what the writers got through in their write window (each writes for exactly
    // `seconds` by its own clock, slowed by PTY back-pressure when the reader falls behind):
    // payload bytes of the lines read, without the \r the PTY adds, per session per second.
    double wallSeconds = (finished - started) / 1e9;
    long payloadBytes = totalBytes / (LINE_BYTES + 1) * LINE_BYTES;
    double achieved = payloadBytes / (double) sessions / seconds / 1e6;
    Figures.of("PTY sessions under load").put("sessions", sessions).put("seconds", seconds)
        .put("target_mb_s_per_session", rate / 1e6).put("bytes_read", totalBytes).put("log_lines", totalLines)
        .put("wall_s", Math.round(wallSeconds * 10) / 10.0)
        .put("achieved_mb_s_per_session", Math.round(achieved * 1000) / 1000.0)
        .put("achieved_mb_s_total", Math.round(achieved * sessions * 100) / 100.0)
        .put("heap_peak_mb", heapPeak / (1024 * 1024))
        .put("load_before", loadBefore).put("load_after", loadAverage())
        .write(sessions + " sessions × 1 MB/s target × " + seconds + " s",
            "0 lost log lines (every line once, in order); achieved rate as measured (PTY back-pressure)");
  }

  /** Checks log continuity as lines arrive (the session keeps only the last 10 000 itself). */
  private static final class Collector implements SessionListener {
    final AtomicLong bytes = new AtomicLong();
    long nextExpected;
    long gaps;
    String firstGap;

    @Override
    public void onOutput(byte[] chunk) {
      bytes.addAndGet(chunk.length);
    }

    @Override
    public synchronized void onLog(List<LogLine> lines) {
      for (LogLine l : lines) {
        String t = l.text();
        if (!t.startsWith("L") || t.length() < 10) {
          continue; // the shell's own lines, if any
        }
        long n = Long.parseLong(t.substring(1, 10));
        if (n != nextExpected) {
          gaps++;
          if (firstGap == null) {
            firstGap = "expected L" + nextExpected + ", got " + t.substring(0, 10);
          }
        }
        nextExpected = n + 1;
      }
    }
  }

  private static String resource(String name) throws URISyntaxException {
    return Path.of(PtyLoadTest.class.getResource("/" + name).toURI()).toString();
  }

  /** The 1-minute load average, to judge whether the achieved rate was CPU-bound by others. */
  private static double loadAverage() throws java.io.IOException {
    return Double.parseDouble(java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    return rt.totalMemory() - rt.freeMemory();
  }
}
