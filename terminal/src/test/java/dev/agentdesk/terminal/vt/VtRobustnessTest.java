package dev.agentdesk.terminal.vt;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Properties: any bytes are accepted, chunking never matters, memory stays bounded. */
class VtRobustnessTest {
  @Provide
  Arbitrary<byte[]> anyBytes() {
    // Bias towards the bytes that drive the parser: ESC, '[', ']', C0/C1, UTF-8 lead bytes.
    Arbitrary<Byte> interesting = Arbitraries.of((byte) 0x1b, (byte) '[', (byte) ']', (byte) ';', (byte) 0x07,
        (byte) 0x9b, (byte) 0x9c, (byte) 0xc3, (byte) 0xe4, (byte) 0xf0, (byte) 0x80, (byte) '?', (byte) 'm',
        (byte) 'H', (byte) 'J', (byte) '\n', (byte) '\r', (byte) 'P', (byte) '\\', (byte) 0xff);
    Arbitrary<Byte> any = Arbitraries.bytes();
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(1, any), net.jqwik.api.Tuple.of(1, interesting))
        .list().ofMaxSize(3000)
        .map(l -> {
          byte[] b = new byte[l.size()];
          for (int i = 0; i < b.length; i++) {
            b[i] = l.get(i);
          }
          return b;
        });
  }

  @Property(tries = 300)
  void randomBytesNeverThrowAndLeaveAConsistentScreen(
      @ForAll("anyBytes") byte[] bytes, @ForAll @IntRange(min = 1, max = 50) int cols,
      @ForAll @IntRange(min = 1, max = 20) int rows) {
    VtEngine e = new VtEngine(cols, rows, 50);
    List<ChangedRow> changed = e.feed(bytes);
    ScreenSnapshot s = e.snapshot();
    assertThat(s.lines()).hasSize(rows);
    assertThat(s.cursorRow()).isBetween(0, rows - 1);
    assertThat(s.cursorCol()).isBetween(0, cols - 1);
    assertThat(changed).allSatisfy(c -> assertThat(c.row()).isBetween(0, rows - 1));
    assertThat(e.log().size()).isLessThanOrEqualTo(50);
    e.resize(Math.max(1, cols / 2), rows + 1); // resizing whatever state the bytes left is safe too
    assertThat(e.snapshot().lines()).hasSize(rows + 1);
  }

  @Property(tries = 200)
  void splittingAStreamAnywhereGivesTheSameScreenAndLog(
      @ForAll("anyBytes") byte[] bytes, @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 3000) Integer> cuts) {
    VtEngine whole = new VtEngine(20, 6, 100);
    whole.feed(bytes);
    VtEngine pieces = new VtEngine(20, 6, 100);
    int[] points = cuts.stream().mapToInt(c -> Math.min(c, bytes.length)).sorted().toArray();
    int from = 0;
    for (int p : points) {
      pieces.feed(bytes, from, p - from);
      from = p;
    }
    pieces.feed(bytes, from, bytes.length - from);
    assertThat(pieces.snapshot()).isEqualTo(whole.snapshot());
    assertThat(pieces.log()).isEqualTo(whole.log());
  }

  @Test
  void invalidUtf8BecomesReplacementCharactersAcrossChunks() {
    VtEngine e = new VtEngine(20, 2);
    e.feed(new byte[] {(byte) 0xe4, (byte) 0xb8}); // first two bytes of U+4E00
    e.feed(new byte[] {(byte) 0x80, 'a', (byte) 0xff, 'b', (byte) 0xe4, 'c', (byte) 0x80});
    assertThat(e.snapshot().lines().get(0)).isEqualTo("\u4e00a\ufffdb\ufffdc\ufffd");
  }

  @Test
  void aStreamStartingMidCharacterShowsOneReplacementPerStrayByte() {
    VtEngine e = new VtEngine(20, 2);
    e.feed(new byte[] {(byte) 0x80, (byte) 0x80, 'o', 'k'});
    assertThat(e.snapshot().lines().get(0)).isEqualTo("\ufffd\ufffdok");
  }

  /** Output shaped like a busy agent: SGR-coloured lines, redraws with \r, a wide char now and then. */
  static byte[] busyOutput(int lines, long seed) {
    Random r = new Random(seed);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      sb.append("\u001b[3").append(r.nextInt(8)).append('m').append("line ").append(i).append(' ');
      int words = r.nextInt(20);
      for (int w = 0; w < words; w++) {
        sb.append(w % 7 == 3 ? "\u65e5\u672c " : "word ");
      }
      sb.append("\u001b[0m");
      if (i % 10 == 0) {
        sb.append("\r\u001b[K progress ").append(i);
      }
      sb.append("\r\n");
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static void feedAndCheckMemory(long totalBytes) {
    byte[] chunk = busyOutput(20_000, 7);
    long before = usedHeapAfterGc();
    VtEngine e = new VtEngine(120, 40);
    long fed = 0;
    while (fed < totalBytes) {
      for (int off = 0; off < chunk.length; off += 4096) {
        e.feed(chunk, off, Math.min(4096, chunk.length - off));
      }
      fed += chunk.length;
    }
    long retained = usedHeapAfterGc() - before;
    List<LogLine> log = e.log();
    assertThat(log).hasSize(VtEngine.DEFAULT_LOG_CAPACITY);
    assertThat(log).allSatisfy(l -> assertThat(l.text().length()).isLessThanOrEqualTo(120));
    assertThat(e.logEnd()).isGreaterThan(VtEngine.DEFAULT_LOG_CAPACITY);
    // 10k rows of at most 120 chars is a few MB; 64 MB would mean something grows with input.
    assertThat(retained).as("heap retained after %d bytes", fed).isLessThan(64L * 1024 * 1024);
  }

  @Test
  void memoryStaysBoundedWithAFullLogShort() {
    feedAndCheckMemory(10L * 1024 * 1024);
  }

  @Test
  @Tag("slow")
  void memoryStaysBoundedWithAFullLogUnder100MegabytesOfInput() {
    feedAndCheckMemory(100L * 1024 * 1024);
  }
}
