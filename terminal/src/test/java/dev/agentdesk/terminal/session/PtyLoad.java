package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.vt.LogLine;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load on real PTYs: N sessions each running {@code load/flood.py} (numbered 100-byte lines at a
 * set rate). Checks that every line reaches the durable log (or the final screen) exactly once and
 * in order, samples the heap, and measures the lag from a chunk's read to the durable-log event it
 * produced. Used by the short default test and by the full-size run behind {@code ./bench pty}.
 */
final class PtyLoad {
  private static final Pattern NUMBERED = Pattern.compile("^L(\\d{10}) x+$");
  private static final Pattern DONE = Pattern.compile("FLOOD-DONE (\\d+)");

  /** What one run measured. */
  record Result(int sessions, int rateBytesPerSec, int seconds, long linesWritten, long linesSeen, long linesLost,
      long outOfOrder, long bytesRead, double wallSeconds, long maxHeapUsedBytes, long maxLiveHeapBytes,
      long heapMaxBytes,
      double lagP50Ms, double lagP99Ms, double lagMaxMs) {

    double mbPerSecPerSession() {
      return bytesRead / 1e6 / wallSeconds / sessions;
    }

    String markdown() {
      return String.join("\n",
          "| measure | value |",
          "| --- | ---: |",
          String.format("| sessions × target rate × duration | %d × %.2f MB/s × %d s |", sessions, rateBytesPerSec / 1e6,
              seconds),
          String.format("| bytes read from all PTYs | %,d (%.2f MB/s per session achieved) |", bytesRead,
              mbPerSecPerSession()),
          String.format("| numbered lines written / reached the durable log or final screen | %,d / %,d |", linesWritten,
              linesSeen),
          String.format("| lines lost / out of order | %,d / %,d |", linesLost, outOfOrder),
          String.format("| heap live after GC, max of samples every 5 s | %,d MB |", maxLiveHeapBytes >> 20),
          String.format("| heap used incl. garbage, max sampled (of -Xmx %,d MB) | %,d MB |", heapMaxBytes >> 20,
              maxHeapUsedBytes >> 20),
          String.format("| lag from PTY read to durable-log event: p50 / p99 / max | %.2f ms / %.2f ms / %.2f ms |",
              lagP50Ms, lagP99Ms, lagMaxMs),
          String.format("| wall time | %.1f s |", wallSeconds));
    }
  }

  /** Per-session checker: runs on that session's reader thread only. */
  private static final class Checker implements SessionListener {
    long nextExpected;
    long seen;
    long outOfOrder;
    long bytes;
    long readAtNanos;
    final long[] lags;
    int lagCount;

    Checker(int lagCapacity) {
      lags = new long[lagCapacity];
    }

    @Override
    public void onOutput(byte[] chunk) {
      bytes += chunk.length;
      readAtNanos = System.nanoTime();
    }

    @Override
    public void onLog(List<LogLine> lines) {
      if (lagCount < lags.length) {
        lags[lagCount++] = System.nanoTime() - readAtNanos;
      }
      for (LogLine l : lines) {
        count(l.text());
      }
    }

    void count(String text) {
      Matcher m = NUMBERED.matcher(text);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        if (n != nextExpected) {
          outOfOrder++;
        }
        nextExpected = n + 1;
        seen++;
      }
    }
  }

  private PtyLoad() {}

  static Result run(int sessions, int rateBytesPerSec, int seconds) throws Exception {
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    AtomicLong maxHeap = new AtomicLong();
    AtomicLong maxLive = new AtomicLong();
    Thread sampler = new Thread(() -> {
      // Used heap includes garbage the collector has not needed to reclaim yet; a full GC every
      // 5 s gives the live set, which is what "bounded" is about.
      for (int tick = 1; !Thread.currentThread().isInterrupted(); tick++) {
        maxHeap.accumulateAndGet(mem.getHeapMemoryUsage().getUsed(), Math::max);
        if (tick % 50 == 0) {
          System.gc();
          maxLive.accumulateAndGet(mem.getHeapMemoryUsage().getUsed(), Math::max);
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "pty-load-heap");
    sampler.setDaemon(true);
    sampler.start();
    String flood = StandIn.script("../load/flood.py").toString();
    List<PtySession> running = new ArrayList<>();
    List<Checker> checkers = new ArrayList<>();
    long t0 = System.nanoTime();
    try {
      for (int i = 0; i < sessions; i++) {
        Checker c = new Checker(200_000);
        checkers.add(c);
        running.add(PtySession.start(SessionSpec.of("python3", flood, Integer.toString(rateBytesPerSec),
            Integer.toString(seconds)).withAgent(Agent.NONE).withSize(120, 24), List.of(c)));
      }
      long written = 0;
      long seen = 0;
      long outOfOrder = 0;
      long bytes = 0;
      for (int i = 0; i < sessions; i++) {
        PtySession s = running.get(i);
        if (s.waitFor() != 0) {
          throw new AssertionError("flood session " + i + " exited with " + s.exitCode());
        }
        Checker c = checkers.get(i);
        long total = -1;
        for (String line : s.screen().lines()) {
          c.count(line); // the last lines never scrolled off: they are on the final screen
          Matcher m = DONE.matcher(line);
          if (m.find()) {
            total = Long.parseLong(m.group(1));
          }
        }
        if (total < 0) {
          throw new AssertionError("session " + i + " never printed FLOOD-DONE; screen:\n" + s.screen().text());
        }
        written += total;
        seen += c.seen;
        outOfOrder += c.outOfOrder;
        bytes += c.bytes;
      }
      double wall = (System.nanoTime() - t0) / 1e9;
      long[] lags = checkers.stream().flatMapToLong(c -> Arrays.stream(c.lags, 0, c.lagCount)).sorted().toArray();
      return new Result(sessions, rateBytesPerSec, seconds, written, seen, written - seen, outOfOrder, bytes, wall,
          maxHeap.get(), liveNow(mem, maxLive), mem.getHeapMemoryUsage().getMax(), pct(lags, 0.50), pct(lags, 0.99),
          lags.length == 0 ? 0 : lags[lags.length - 1] / 1e6);
    } finally {
      sampler.interrupt();
      for (PtySession s : running) {
        s.close();
      }
    }
  }

  /** One more live-set sample while the sessions' state is still reachable, then the maximum. */
  private static long liveNow(MemoryMXBean mem, AtomicLong maxLive) {
    System.gc();
    return maxLive.accumulateAndGet(mem.getHeapMemoryUsage().getUsed(), Math::max);
  }

  private static double pct(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))] / 1e6;
  }
}
