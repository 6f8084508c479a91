package dev.agentdesk.bench.vt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * The three benchmark corpora, generated deterministically (same bytes in the JMH run and in the
 * files the xterm.js side-by-side reads):
 *
 * <ul>
 *   <li>{@code plain}: log-like lines of ASCII text of varying length, LF-terminated — a build or
 *       test run scrolling by;
 *   <li>{@code sgr}: the same shape with every word coloured (16, 256 and 24-bit colours, bold,
 *       underline, resets) — syntax-highlighted diffs and coloured agent output;
 *   <li>{@code cursor}: full-screen redraws — cursor positioning, erase in line, short text,
 *       scroll regions, hidden cursor — the way top, vim or an Ink agent UI repaint.
 * </ul>
 *
 * <p>{@code java -cp benchmarks.jar dev.agentdesk.bench.vt.VtCorpus DIR} writes them as DIR/NAME.bin.
 */
public final class VtCorpus {
  private VtCorpus() {}

  public static final String[] NAMES = {"plain", "sgr", "cursor"};
  static final int SIZE = 4 * 1024 * 1024;

  public static byte[] generate(String name) {
    return switch (name) {
      case "plain" -> plain();
      case "sgr" -> sgr();
      case "cursor" -> cursor();
      default -> throw new IllegalArgumentException("unknown corpus " + name + " (plain, sgr, cursor)");
    };
  }

  private static final String[] WORDS = {"the", "build", "compiles", "module", "terminal", "agent", "test",
      "passed", "in", "0.42s", "warning:", "unused", "import", "java.util.List", "at", "line", "1234", "->", "ok"};

  private static byte[] plain() {
    Random r = new Random(1);
    StringBuilder sb = new StringBuilder(SIZE + 200);
    while (sb.length() < SIZE) {
      int words = 3 + r.nextInt(14);
      for (int w = 0; w < words; w++) {
        sb.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
      }
      sb.append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] sgr() {
    Random r = new Random(2);
    StringBuilder sb = new StringBuilder(SIZE + 200);
    while (sb.length() < SIZE) {
      int words = 3 + r.nextInt(10);
      for (int w = 0; w < words; w++) {
        switch (r.nextInt(5)) {
          case 0 -> sb.append("\u001b[").append(30 + r.nextInt(8)).append('m');
          case 1 -> sb.append("\u001b[1;38;5;").append(r.nextInt(256)).append('m');
          case 2 -> sb.append("\u001b[38;2;").append(r.nextInt(256)).append(';').append(r.nextInt(256)).append(';')
              .append(r.nextInt(256)).append('m');
          case 3 -> sb.append("\u001b[4;48;5;").append(r.nextInt(256)).append('m');
          default -> sb.append("\u001b[0m");
        }
        sb.append(WORDS[r.nextInt(WORDS.length)]).append("\u001b[0m ");
      }
      sb.append("\r\n");
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] cursor() {
    Random r = new Random(3);
    StringBuilder sb = new StringBuilder(SIZE + 2000);
    int frame = 0;
    while (sb.length() < SIZE) {
      sb.append("\u001b[?25l\u001b[1;23r");
      for (int row = 1; row <= 24; row++) {
        sb.append("\u001b[").append(row).append(";1H");
        sb.append(String.format("%5d %-8s %5.1f %5.1f ", 1000 + row, WORDS[(row + frame) % WORDS.length],
            r.nextInt(1000) / 10.0, r.nextInt(1000) / 10.0));
        sb.append("\u001b[K");
        if (row % 4 == 0) {
          sb.append("\u001b[").append(row).append(";60H\u001b[7m").append(frame % 100).append("%\u001b[m");
        }
      }
      sb.append("\u001b[r\u001b[24;1H\u001b[2K> status frame ").append(frame++).append("\u001b[?25h");
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    Files.createDirectories(dir);
    for (String n : NAMES) {
      Files.write(dir.resolve(n + ".bin"), generate(n));
    }
  }
}
