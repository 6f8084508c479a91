package dev.agentdesk.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * Replays recorded sessions into live session files the way an agent writes them: whole lines
 * appended through an open file, interleaved between the files, and now and then one line in two
 * writes with a pause between, so a reader can find a partial last line. Some of those pauses
 * outlast the server's 300 ms debounce, so a tailing import really runs while a line is half
 * written.
 */
final class LiveSessionWriter {
  /** A session file to create and the lines (each ending in a newline) to append to it. */
  record Live(Path file, List<byte[]> lines) {
    static Live replay(Path seed, Path file) {
      byte[] all = Seeds.read(seed);
      List<byte[]> lines = new ArrayList<>();
      int start = 0;
      for (int i = 0; i < all.length; i++) {
        if (all[i] == '\n') {
          lines.add(Arrays.copyOfRange(all, start, i + 1));
          start = i + 1;
        }
      }
      if (start < all.length) {
        byte[] last = Arrays.copyOf(Arrays.copyOfRange(all, start, all.length), all.length - start + 1);
        last[last.length - 1] = '\n';
        lines.add(last);
      }
      return new Live(file, List.copyOf(lines));
    }
  }

  private static final long LONG_PAUSE_MIN_MS = 350;
  private static final long LONG_PAUSE_MAX_MS = 600;

  private final List<Live> sessions;
  private final SplittableRandom random;
  private final long meanGapMillis;
  private final BooleanSupplier stop;
  private volatile int linesWritten;
  private volatile int splitLines;
  private volatile int longPauses;

  /** Appends every line of every session, {@code meanGapMillis} apart on average. */
  LiveSessionWriter(List<Live> sessions, long seed, long meanGapMillis) {
    this(sessions, seed, meanGapMillis, () -> false);
  }

  /** As above, but stops early (after a whole line) once {@code stop} says so. */
  LiveSessionWriter(List<Live> sessions, long seed, long meanGapMillis, BooleanSupplier stop) {
    this.sessions = List.copyOf(sessions);
    this.random = new SplittableRandom(seed);
    this.meanGapMillis = meanGapMillis;
    this.stop = stop;
  }

  /** Appends the lines, then returns; every file ends with a whole line. */
  void run() throws InterruptedException {
    int[] next = new int[sessions.size()];
    FileChannel[] open = new FileChannel[sessions.size()];
    try {
      while (true) {
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < sessions.size(); i++) {
          if (next[i] < sessions.get(i).lines().size()) {
            left.add(i);
          }
        }
        if (left.isEmpty() || stop.getAsBoolean()) {
          return;
        }
        int s = left.get(random.nextInt(left.size()));
        if (open[s] == null) {
          Files.createDirectories(sessions.get(s).file().getParent());
          open[s] = FileChannel.open(sessions.get(s).file(), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
              StandardOpenOption.APPEND);
        }
        byte[] line = sessions.get(s).lines().get(next[s]++);
        if (line.length > 1 && random.nextInt(100) < 15) {
          int cut = 1 + random.nextInt(line.length - 1);
          write(open[s], line, 0, cut);
          splitLines++;
          if (random.nextInt(8) == 0) {
            longPauses++;
            Thread.sleep(LONG_PAUSE_MIN_MS + random.nextLong(LONG_PAUSE_MAX_MS - LONG_PAUSE_MIN_MS));
          } else {
            Thread.sleep(random.nextLong(2 * meanGapMillis + 1));
          }
          write(open[s], line, cut, line.length - cut);
        } else {
          write(open[s], line, 0, line.length);
        }
        linesWritten++;
        Thread.sleep(random.nextLong(2 * meanGapMillis + 1));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      for (FileChannel ch : open) {
        close(ch);
      }
    }
  }

  int linesWritten() {
    return linesWritten;
  }

  int splitLines() {
    return splitLines;
  }

  /** Split lines whose second half came after a pause longer than the server's debounce. */
  int longPauses() {
    return longPauses;
  }

  /** One write(2) for the whole range: what a reader sees is exactly what was written so far. */
  private static void write(FileChannel ch, byte[] b, int off, int len) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(b, off, len);
    while (buf.hasRemaining()) {
      ch.write(buf);
    }
  }

  private static void close(FileChannel ch) {
    if (ch == null) {
      return;
    }
    try {
      ch.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
