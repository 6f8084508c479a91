package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ManualClock;
import dev.agentdesk.terminal.parser.ParsingTerminal;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The VT engine + output parser fed random and mutated chunks (10⁷ under -Preliability): no
 * exception ever, the durable log stays within its bound, the heap stays bounded, and no chunk
 * takes pathologically long. Each stream uses a fresh terminal with a random agent and size, and
 * interleaves user input, resizes and timer ticks the way a live session does.
 */
class TerminalFuzzTest {
  private static final long SEED = 0x5EED_7E51L;
  private static final int CHUNKS_PER_STREAM = 2_000;

  @Test
  void randomAndMutatedChunksNeverThrowAndStayBounded() throws Throwable {
    onReaderThread(TerminalFuzzTest::fuzz);
  }

  /**
   * Runs on a thread with the JVM's default stack (1 MB), as the server's PTY readers do, not on
   * the test's main thread (8 MB here), so a deep recursion fails here as it would there.
   */
  private static void onReaderThread(Runnable body) throws Throwable {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "pty-reader-like");
    t.start();
    t.join();
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  private static void fuzz() {
    long chunks = Size.pick(20_000L, 10_000_000L);
    List<byte[]> seeds = seedChunks();
    assertThat(seeds).as("seed corpus (terminal fixtures)").isNotEmpty();
    Mutator mutator = new Mutator(SEED);
    SplittableRandom random = mutator.random();

    long bytes = 0;
    long events = 0;
    long maxChunkNanos = 0;
    long maxChunkCpuNanos = 0;
    String slowestCpu = "";
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long started = System.nanoTime();
    long[] sample = new long[(int) Math.min(chunks, 1_000_000)];
    long heapPeak = 0;
    Agent[] agents = Agent.values();
    ManualClock clock = null;
    ParsingTerminal term = null;
    for (long i = 0; i < chunks; i++) {
      if (i % CHUNKS_PER_STREAM == 0) {
        if (term != null) {
          assertThat(term.engine().log().size()).isLessThanOrEqualTo(term.engine().logCapacity());
        }
        clock = new ManualClock(0);
        term = new ParsingTerminal(agents[random.nextInt(agents.length)], 1 + random.nextInt(300),
            1 + random.nextInt(100), clock);
      }
      byte[] chunk = nextChunk(mutator, seeds);
      long t0 = System.nanoTime();
      long c0 = threads.getCurrentThreadCpuTime();
      try {
        events += term.output(chunk, 0, chunk.length).size();
        int r = random.nextInt(100);
        if (r == 0) {
          events += term.resize(1 + random.nextInt(300), 1 + random.nextInt(100)).size();
        } else if (r < 3) {
          byte[] in = mutator.randomBytes(8);
          events += term.input(in, 0, in.length).size();
        } else if (r < 10) {
          clock.advanceBy(random.nextInt(20_000));
          events += term.tick().size();
        }
      } catch (RuntimeException | StackOverflowError e) {
        throw new AssertionError("chunk " + i + " (seed " + SEED + ") threw on input "
            + Arrays.toString(Arrays.copyOf(chunk, Math.min(chunk.length, 200))), e);
      }
      long dt = System.nanoTime() - t0;
      long cpu = threads.getCurrentThreadCpuTime() - c0;
      maxChunkNanos = Math.max(maxChunkNanos, dt);
      if (cpu > maxChunkCpuNanos) {
        maxChunkCpuNanos = cpu;
        slowestCpu = "chunk " + i + " (" + chunk.length + " bytes, " + cpu / 1_000_000 + " ms CPU): "
            + Arrays.toString(Arrays.copyOf(chunk, Math.min(chunk.length, 120)));
      }
      sample[(int) (i % sample.length)] = dt;
      bytes += chunk.length;
      if (i % 100_000 == 99_999) {
        heapPeak = Math.max(heapPeak, usedHeap());
      }
    }
    heapPeak = Math.max(heapPeak, usedHeap());
    long[] sorted = sample.clone();
    Arrays.sort(sorted);
    long p99 = sorted[(int) (sorted.length * 0.99)];

    double seconds = (System.nanoTime() - started) / 1e9;
    // Pathological-time guard, not a speed test: a chunk of at most a few KiB must not take a
    // second of CPU. CPU time of this thread, not wall time: on the shared 2-core machine a
    // thread waits for a core or for a GC pause for long stretches (a 1.2 s wall-clock chunk at a
    // load average of 6), which says nothing about the input. The wall-clock maximum is reported.
    assertThat(maxChunkCpuNanos).as("most CPU for one chunk (ns), %s", slowestCpu).isLessThan(1_000_000_000L);
    assertThat(heapPeak).as("heap in use after GC (bytes)").isLessThan(512L * 1024 * 1024);

    Figures.of("VT engine + output parser fuzz")
        .put("chunks", chunks).put("bytes", bytes).put("events", events)
        .put("p99_chunk_us", p99 / 1000.0).put("max_chunk_cpu_us", maxChunkCpuNanos / 1000)
        .put("max_chunk_wall_us", maxChunkNanos / 1000).put("seconds", Math.round(seconds))
        .put("heap_peak_mb", Math.round(heapPeak / (1024.0 * 1024.0) * 10) / 10.0)
        .write(chunks + " chunks, " + bytes / (1024 * 1024) + " MiB",
            "0 exceptions; log within capacity; no chunk over 1 s of CPU; heap after GC < 512 MB");
  }

  /**
   * Found by the 10⁷-chunk run (chunk 937 696): {@code ■ CSI 99999999 b} (REP) fills the whole
   * screen with the glyph, the rows join into one 30 000-character logical line, and a regex
   * whose repeated group recursed once per glyph overflowed the stack. Every agent, the largest
   * screen, each repeatable lead glyph and the digit-unit runs of the retry and elapsed-time
   * patterns, on a thread with the default 1 MB stack of the server's PTY readers.
   */
  @Test
  void screenLongRunsOfOneGlyphDoNotOverflowTheParser() throws Throwable {
    List<String> fills = List.of("■", "●", "!", ">", "│", "⚠\uFE0F", "1s", "1h 2m", " Error: ");
    onReaderThread(() -> {
      for (Agent agent : Agent.values()) {
        for (String fill : fills) {
          ParsingTerminal term = new ParsingTerminal(agent, 300, 100, new ManualClock(0));
          String prefix = fill.codePointCount(0, fill.length()) == 1 ? fill + "\u001b[99999999b"
              : fill.repeat(30_000 / fill.length());
          byte[] out = ("\u001b[H" + prefix + " You've hit your usage limit. Try again in 2 days 17 hours.\r\n"
              + "• Working (" + "1h ".repeat(5_000) + "• esc to interrupt)\r\n").getBytes(StandardCharsets.UTF_8);
          try {
            term.output(out, 0, out.length);
            term.tick();
          } catch (StackOverflowError e) {
            throw new AssertionError("stack overflow on a screen-long run of '" + fill + "' (" + agent + ")");
          }
        }
      }
    });
  }

  private static byte[] nextChunk(Mutator mutator, List<byte[]> seeds) {
    SplittableRandom random = mutator.random();
    int kind = random.nextInt(10);
    if (kind < 3) {
      return mutator.randomBytes(512);
    }
    byte[] seed = seeds.get(random.nextInt(seeds.size()));
    if (kind < 5) {
      return seed; // intact real output keeps the screen in realistic states between mutations
    }
    return mutator.mutate(seed);
  }

  /** The fixtures cut into chunks of up to 4 KiB, as a PTY read would deliver them. */
  private static List<byte[]> seedChunks() {
    List<byte[]> out = new ArrayList<>();
    for (var p : Seeds.files(List.of("terminal/src/test/resources"), List.of("corpus/terminal"),
        f -> !f.toString().endsWith(".json"))) {
      byte[] all = Seeds.read(p);
      for (int off = 0; off < all.length; off += 4096) {
        out.add(Arrays.copyOfRange(all, off, Math.min(all.length, off + 4096)));
      }
    }
    return out;
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    return rt.totalMemory() - rt.freeMemory();
  }
}
