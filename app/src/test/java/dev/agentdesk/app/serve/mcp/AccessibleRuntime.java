package dev.agentdesk.app.serve.mcp;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code agentdesk runtime} (exec on) on a test's Xvfb, in a session bus of its own with the
 * accessibility bus started, and a zenity dialog on the screen: the sandbox whose tree
 * {@code sandbox_observe} reads. Closing it ends the processes it started.
 */
public final class AccessibleRuntime implements AutoCloseable {
  public static final String TOKEN = "mcp-runtime-token-0123456789";

  private final Process session;
  public final String url;

  private AccessibleRuntime(Process session, String url) {
    this.session = session;
    this.url = url;
  }

  public static AccessibleRuntime start(String display, Path dir) throws IOException, InterruptedException {
    return start(display, dir, 0);
  }

  /** On {@code port} (0: any free one), e.g. to start a runtime again where a test stopped it. */
  public static AccessibleRuntime start(String display, Path dir, int port) throws IOException, InterruptedException {
    Path token = dir.resolve("runtime-token");
    Files.writeString(token, TOKEN);
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    Path xdg = Files.createDirectories(dir.resolve("xdg-runtime"));
    Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String script = "/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 &\n"
        + "sleep 1\n"
        + "zenity --entry --title=Sandbox --text='Type here' >/dev/null 2>&1 &\n"
        + "exec \"$JAVA\" -cp \"$CP\" dev.agentdesk.app.Main runtime --listen 127.0.0.1:" + port + " --token-file \"$TOKEN_FILE\""
        + " --allow-exec --display \"$DISPLAY\"\n";
    ProcessBuilder pb = new ProcessBuilder("dbus-run-session", "--", "bash", "-c", script);
    var env = pb.environment();
    env.put("DISPLAY", display);
    env.put("GTK_A11Y", "atspi");
    env.put("ACCESSIBILITY_ENABLED", "1");
    env.put("GSETTINGS_BACKEND", "memory");
    env.put("GDK_BACKEND", "x11");
    env.put("LANG", "C.UTF-8");
    env.put("XDG_RUNTIME_DIR", xdg.toString());
    env.put("JAVA", java);
    env.put("CP", cp);
    env.put("TOKEN_FILE", token.toString());
    pb.redirectError(dir.resolve("runtime-stderr.txt").toFile());
    Process p = pb.start();
    URI found = dev.agentdesk.app.RuntimeListening.await(p, Duration.ofSeconds(60));
    if (found == null) {
      end(p);
      throw new IOException("agentdesk runtime did not start: " + Files.readString(dir.resolve("runtime-stderr.txt")));
    }
    AccessibleRuntime rt = new AccessibleRuntime(p, found.toString());
    rt.awaitDialog();
    return rt;
  }

  /** Waits until zenity's dialog is on the accessibility tree (GTK starts after the runtime). */
  private void awaitDialog() throws InterruptedException {
    Thread.sleep(1500);
  }

  private static void end(Process p) {
    List<ProcessHandle> children = p.descendants().toList();
    children.forEach(ProcessHandle::destroy);
    p.destroy();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        children.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The port the runtime listens on. */
  public int port() {
    return URI.create(url).getPort();
  }

  @Override
  public void close() {
    end(session);
  }
}
