package dev.agentdesk.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One Xvfb process on a display nobody else uses. Usable outside JUnit too (benchmarks,
 * {@code agentdesk runtime --xvfb}).
 */
public final class XvfbServer implements AutoCloseable {
  private static final Path SOCKET_DIR = Path.of("/tmp/.X11-unix");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(15);

  private final Process process;
  private final XDisplay display;
  /**
   * Stops Xvfb when the JVM exits without {@link #close} (a failed benchmark setup, System.exit):
   * a child process outlives its JVM otherwise, and an orphaned server keeps a display and CPU.
   */
  private final Thread reaper;

  private XvfbServer(Process process, XDisplay display) {
    this.process = process;
    this.display = display;
    this.reaper = new Thread(process::destroy, "xvfb-reaper-" + display.name()); // SIGTERM: Xvfb removes its lock file
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  /** The Xvfb executable on PATH, if any. */
  public static Optional<Path> executable() {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(":")) {
      Path candidate = Path.of(dir, "Xvfb");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * Starts Xvfb with a {@code width x height x 24} screen on the first free display at or above
   * 90, using {@code -displayfd} so that Xvfb itself picks a free number and tells us which.
   */
  public static XvfbServer start(int width, int height) throws IOException, InterruptedException {
    Path xvfb = executable().orElseThrow(() -> new IOException("Xvfb not found on PATH"));
    Path fdFile = Files.createTempFile("agentdesk-xvfb", ".display");
    try {
      ProcessBuilder pb = new ProcessBuilder(List.of(
          xvfb.toString(), "-displayfd", "1", "-screen", "0", width + "x" + height + "x24",
          "-nolisten", "tcp", "-noreset", "+extension", "XTEST", "+extension", "MIT-SHM"));
      pb.redirectOutput(fdFile.toFile());
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process process = pb.start();
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        String text = Files.readString(fdFile).trim();
        if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
          int number = Integer.parseInt(text);
          if (Files.exists(SOCKET_DIR.resolve("X" + number))) {
            return new XvfbServer(process, new XDisplay(":" + number, width, height));
          }
        }
        if (!process.isAlive()) {
          throw new IOException("Xvfb exited with status " + process.exitValue() + " before it was ready");
        }
        Thread.sleep(20);
      }
      process.destroyForcibly();
      throw new IOException("Xvfb did not report a display within " + START_TIMEOUT.toSeconds() + " s");
    } finally {
      Files.deleteIfExists(fdFile);
    }
  }

  public XDisplay display() {
    return display;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The server's process id. */
  public long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or will run; stopping twice is harmless
    }
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
