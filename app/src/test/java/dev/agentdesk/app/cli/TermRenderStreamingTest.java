package dev.agentdesk.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code term render} streams its input: a child JVM whose whole heap is {@value #HEAP_MB} MB
 * renders inputs four times that size — a raw stream, and a .tcap capture whose one output record
 * alone is larger than the heap. Reading either whole (as {@code readAllBytes} or one
 * {@code byte[]} per record would) runs out of memory, and the child fails.
 */
class TermRenderStreamingTest {
  static final int HEAP_MB = 16;
  static final int INPUT_MB = 4 * HEAP_MB;
  /** What the stream ends with, so the final screen is known exactly. */
  static final String TAIL = "\u001b[?2026l\u001b[0m\u001b[2J\u001b[H⏺ rendered after " + INPUT_MB
      + " MB\r\n  ⎿  \u001b[32mall chunks fed\u001b[0m";
  static final String SCREEN = "⏺ rendered after " + INPUT_MB + " MB\n  ⎿  all chunks fed";

  @TempDir
  Path dir;

  /** One Claude-style frame and a few lines of output: SGR, UTF-8, synchronized output, CR/EL. */
  private static byte[] block(int i) {
    return ("\u001b[?2026h\u001b[3A\r\u001b[38;2;215;119;87m✻\u001b[39m Thinking… (" + i
        + "s · esc to interrupt)\u001b[K\r\n\u001b[38;5;244m" + "─".repeat(100) + "\u001b[0m\r\n❯ \u001b[K\r\n"
        + "\u001b[?2026l\u001b[1m⏺\u001b[22m Bash(ls -la src/main/java)\r\n  ⎿  \u001b[31m-old line " + i
        + "\u001b[0m\r\n     \u001b[32m+new line " + i + "\u001b[0m\r\n").getBytes(StandardCharsets.UTF_8);
  }

  /** Writes agent-like blocks until {@code bytes} have been written. */
  private static void fill(OutputStream out, long bytes) throws IOException {
    long written = 0;
    for (int i = 0; written < bytes; i++) {
      byte[] b = block(i);
      out.write(b);
      written += b.length;
    }
  }

  private static String render(Path file) throws IOException, InterruptedException {
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + HEAP_MB + "m", "-cp", System.getProperty("java.class.path"), "dev.agentdesk.app.Main",
        "term", "render", "--cols", "120", "--rows", "40", file.toString());
    Path err = file.resolveSibling(file.getFileName() + ".err");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("exit of the child, stderr:%n%s", Files.readString(err)).isZero();
    return new String(out, StandardCharsets.UTF_8);
  }

  @Test
  void aRawStreamFourTimesTheHeapRenders() throws Exception {
    Path f = dir.resolve("agent.raw");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(f))) {
      fill(out, INPUT_MB * 1024L * 1024);
      out.write(TAIL.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(Files.size(f)).isGreaterThan(4L * HEAP_MB * 1024 * 1024);
    assertThat(render(f)).isEqualTo(SCREEN + System.lineSeparator());
  }

  @Test
  void aTcapRecordLargerThanTheHeapRenders() throws Exception {
    Path raw = dir.resolve("record.raw");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(raw))) {
      fill(out, 2L * HEAP_MB * 1024 * 1024);
    }
    byte[] big = Files.readAllBytes(raw); // the test's own heap is not the child's
    Files.delete(raw);
    Path f = dir.resolve("agent.tcap");
    byte[] typed = "secret typed keys".getBytes(StandardCharsets.UTF_8);
    byte[] tail = TAIL.getBytes(StandardCharsets.UTF_8);
    try (TcapWriter w = TcapWriter.create(f)) {
      w.write(Direction.OUTPUT, 0, big, 0, big.length);
      w.write(Direction.INPUT, 10, typed, 0, typed.length);
      w.write(Direction.OUTPUT, 20, big, 0, big.length);
      w.write(Direction.OUTPUT, 30, tail, 0, tail.length);
    }
    assertThat(Files.size(f)).isGreaterThan(4L * HEAP_MB * 1024 * 1024);
    assertThat(render(f)).isEqualTo(SCREEN + System.lineSeparator());
  }
}
