package dev.agentdesk.computeruse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real xterm covering the screen's top-left corner whose terminal is in raw mode with SGR mouse
 * reporting on, and whose every input byte lands in a file: what a key press or a click really
 * delivered to an X application (Return is 0x0d, Page_Down is ESC [6~, a left press at cell 3,2 is
 * ESC [<0;3;2M).
 */
final class XtermProbe implements AutoCloseable {
  private final Process process;
  private final Path bytes;

  private XtermProbe(Process process, Path bytes) {
    this.process = process;
    this.bytes = bytes;
  }

  static XtermProbe start(String display, Path dir, String geometry) throws IOException, InterruptedException {
    Path out = dir.resolve("xterm-input-" + System.nanoTime());
    Path ready = dir.resolve("xterm-ready-" + System.nanoTime());
    // 1000: press/release reports; 1002: motion while a button is held; 1006: SGR encoding.
    String script = "printf '\\033[?1000h\\033[?1002h\\033[?1006h'; stty raw -echo; : > '" + ready + "'; "
        + "exec dd bs=1 of='" + out + "' 2>/dev/null";
    ProcessBuilder pb = new ProcessBuilder("xterm", "-geometry", geometry, "-b", "0", "+sb", "-e", "sh", "-c", script)
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("DISPLAY", display);
    Process p = pb.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!Files.exists(ready)) {
      if (System.nanoTime() > deadline || !p.isAlive()) {
        p.destroyForcibly();
        throw new IllegalStateException("xterm did not come up on " + display);
      }
      Thread.sleep(20);
    }
    return new XtermProbe(p, out);
  }

  /** Everything the terminal received so far. */
  String received() throws IOException {
    return Files.exists(bytes) ? new String(Files.readAllBytes(bytes), StandardCharsets.ISO_8859_1) : "";
  }

  /** Waits until at least {@code n} bytes arrived and stay unchanged for 200 ms; returns them. */
  String await(int n, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = received();
    long stableSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Thread.sleep(25);
      String now = received();
      if (!now.equals(last)) {
        last = now;
        stableSince = System.nanoTime();
      } else if (now.length() >= n && System.nanoTime() - stableSince > TimeUnit.MILLISECONDS.toNanos(200)) {
        return now;
      }
    }
    return last;
  }

  /** Forgets what arrived so far (the next {@link #received()} starts empty). */
  void clear() throws IOException {
    // dd keeps writing at its own offset; truncating would leave a hole, so remember a mark instead.
    mark = received().length();
  }

  private int mark;

  /** What arrived since the last {@link #clear()}. */
  String since() throws IOException {
    return received().substring(mark);
  }

  String awaitSince(int n, Duration timeout) throws IOException, InterruptedException {
    return await(mark + n, timeout).substring(mark);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
