package dev.agentdesk.app.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An Xvfb the runtime starts for itself ({@code --xvfb WxH}) on a display number Xvfb picks
 * ({@code -displayfd}), stopped when the runtime exits.
 */
public final class OwnXvfb implements AutoCloseable {
  private final Process process;
  private final String display;

  private OwnXvfb(Process process, String display) {
    this.process = process;
    this.display = display;
  }

  public static OwnXvfb start(int width, int height) throws IOException, InterruptedException {
    Path fd = Files.createTempFile("agentdesk-xvfb", ".display");
    try {
      ProcessBuilder pb = new ProcessBuilder(List.of("Xvfb", "-displayfd", "1", "-screen", "0",
          width + "x" + height + "x24", "-nolisten", "tcp", "-noreset", "+extension", "XTEST",
          "+extension", "MIT-SHM"));
      pb.redirectOutput(fd.toFile());
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process p;
      try {
        p = pb.start();
      } catch (IOException e) {
        throw new IOException("cannot start Xvfb (install package xvfb): " + e.getMessage(), e);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (System.nanoTime() < deadline) {
        String n = Files.readString(fd).trim();
        if (!n.isEmpty() && n.chars().allMatch(Character::isDigit)
            && Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
          return new OwnXvfb(p, ":" + n);
        }
        if (!p.isAlive()) {
          throw new IOException("Xvfb exited with status " + p.exitValue() + " before it was ready");
        }
        Thread.sleep(20);
      }
      p.destroyForcibly();
      throw new IOException("Xvfb did not report a display within 15 s");
    } finally {
      Files.deleteIfExists(fd);
    }
  }

  public String display() {
    return display;
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
      process.destroyForcibly();
    }
  }
}
