package dev.agentdesk.aci.runtime.atspi;

import dev.agentdesk.aci.runtime.atspi.internal.BusLocator;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real accessible desktop for tests: Xvfb, a private D-Bus session bus, the AT-SPI bus
 * launcher (which starts the accessibility bus and, on demand, at-spi2-registryd) and any GTK
 * applications a test launches. {@link #close()} stops everything it started, children first.
 */
public final class AtspiDesktop implements AutoCloseable {
  private final XvfbServer xvfb;
  private final Path runtimeDir;
  private final Process sessionBus;
  private final String sessionAddress;
  private final Process launcher;
  private final List<GuiApp> apps = new ArrayList<>();

  private AtspiDesktop(XvfbServer xvfb, Path runtimeDir, Process sessionBus,
      String sessionAddress, Process launcher) {
    this.xvfb = xvfb;
    this.runtimeDir = runtimeDir;
    this.sessionBus = sessionBus;
    this.sessionAddress = sessionAddress;
    this.launcher = launcher;
  }

  /**
   * Starts the desktop. {@code abstractSessionBus} puts the session bus in the abstract socket
   * namespace ({@code unix:abstract=}); the launcher always creates a {@code unix:path=} a11y bus,
   * so one desktop exercises both address kinds.
   */
  public static AtspiDesktop start(int width, int height, boolean abstractSessionBus)
      throws IOException, InterruptedException {
    XvfbServer xvfb = XvfbServer.start(width, height);
    Path runtimeDir = Files.createTempDirectory("agentdesk-atspi-");
    Process bus = null;
    Process launcher = null;
    try {
      String tag = UUID.randomUUID().toString().substring(0, 12);
      String listen = abstractSessionBus ? "unix:abstract=/tmp/agentdesk-atspi-" + tag
          : "unix:path=" + runtimeDir.resolve("session-bus");
      ProcessBuilder pb = new ProcessBuilder("dbus-daemon", "--session", "--nofork",
          "--print-address=1", "--address=" + listen);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("DISPLAY", xvfb.display().name());
      bus = pb.start();
      String address = firstLine(bus, 10);
      Map<String, String> env = baseEnv(xvfb.display(), runtimeDir, address);
      ProcessBuilder lb = new ProcessBuilder("/usr/libexec/at-spi-bus-launcher",
          "--launch-immediately");
      lb.environment().putAll(env);
      lb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      lb.redirectError(ProcessBuilder.Redirect.DISCARD);
      launcher = lb.start();
      AtspiDesktop d = new AtspiDesktop(xvfb, runtimeDir, bus, address, launcher);
      d.awaitA11yBus();
      return d;
    } catch (IOException | InterruptedException | RuntimeException e) {
      stop(launcher);
      stop(bus);
      xvfb.close();
      deleteTree(runtimeDir);
      throw e;
    }
  }

  private static String firstLine(Process p, int timeoutSeconds) throws IOException {
    CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
      try {
        return new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8)).readLine();
      } catch (IOException e) {
        return null;
      }
    });
    try {
      String s = line.get(timeoutSeconds, TimeUnit.SECONDS);
      if (s == null || s.isBlank()) {
        throw new IOException("dbus-daemon printed no address");
      }
      return s.trim();
    } catch (Exception e) {
      throw new IOException("dbus-daemon did not start: " + e, e);
    }
  }

  private static Map<String, String> baseEnv(XDisplay display, Path runtimeDir, String bus) {
    Map<String, String> env = new HashMap<>();
    env.put("DISPLAY", display.name());
    env.put("DBUS_SESSION_BUS_ADDRESS", bus);
    env.put("XDG_RUNTIME_DIR", runtimeDir.toString());
    env.put("GDK_BACKEND", "x11");
    env.put("GSETTINGS_BACKEND", "memory");
    env.put("ACCESSIBILITY_ENABLED", "1");
    env.put("GTK_A11Y", "atspi");
    env.put("LANG", "C.UTF-8");
    return env;
  }

  private void awaitA11yBus() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    IOException last = null;
    while (System.nanoTime() < deadline) {
      if (!launcher.isAlive()) {
        throw new IOException("at-spi-bus-launcher exited with " + launcher.exitValue());
      }
      try {
        a11yAddress();
        return;
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(50);
    }
    throw new IOException("the accessibility bus did not come up", last);
  }

  /** The accessibility bus address, as the session bus hands it out. */
  public String a11yAddress() throws IOException {
    try {
      return BusLocator.a11yAddress(Optional.empty(), Optional.of(sessionAddress), 250);
    } catch (BusLocator.Unavailable e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  public XDisplay display() {
    return xvfb.display();
  }

  public String sessionAddress() {
    return sessionAddress;
  }

  public Map<String, String> env() {
    return baseEnv(xvfb.display(), runtimeDir, sessionAddress);
  }

  public AtspiSettings settings() {
    return AtspiSettings.forSessionBus(sessionAddress);
  }

  /** A launched application with its stdout collected. */
  public static final class GuiApp {
    private final Process process;
    private final Path stdout;

    GuiApp(Process process, Path stdout) {
      this.process = process;
      this.stdout = stdout;
    }

    public Process process() {
      return process;
    }

    public boolean waitForExit(long timeout, TimeUnit unit) throws InterruptedException {
      return process.waitFor(timeout, unit);
    }

    public String stdout() throws IOException {
      return Files.readString(stdout);
    }
  }

  public synchronized GuiApp launch(String... argv) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().remove("NO_AT_BRIDGE");
    pb.environment().putAll(env());
    pb.environment().remove("NO_AT_BRIDGE");
    Path out = Files.createTempFile(runtimeDir, "app-", ".out");
    pb.redirectOutput(out.toFile());
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    GuiApp app = new GuiApp(pb.start(), out);
    apps.add(app);
    return app;
  }

  /** Runs a command (xdotool, import, …) against this desktop and returns its stdout. */
  public String run(List<String> argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().putAll(env());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(argv.get(0) + " hung");
    }
    String text = new String(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", argv) + " exited " + p.exitValue() + ": " + text);
    }
    return text;
  }

  public String xdotool(String... args) throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>();
    argv.add("xdotool");
    argv.addAll(List.of(args));
    return run(argv);
  }

  /** A PNG of the whole screen, taken with ImageMagick's {@code import}. */
  public Path screenshot() throws IOException, InterruptedException {
    Path png = Files.createTempFile(runtimeDir, "shot-", ".png");
    run(List.of("import", "-window", "root", png.toString()));
    return png;
  }

  @Override
  public synchronized void close() {
    for (GuiApp app : apps) {
      stop(app.process);
    }
    apps.clear();
    stop(launcher);
    stop(sessionBus);
    xvfb.close();
    deleteTree(runtimeDir);
  }

  /** Stops a process and everything it spawned, children first. */
  private static void stop(Process p) {
    if (p == null) {
      return;
    }
    List<ProcessHandle> kids = p.descendants().toList();
    for (ProcessHandle k : kids) {
      k.destroy();
    }
    p.destroy();
    try {
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
      for (ProcessHandle k : kids) {
        k.onExit().get(5, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      for (ProcessHandle k : kids) {
        k.destroyForcibly();
      }
      p.destroyForcibly();
    }
  }

  private static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException ignored) {
      // A leftover temp file is harmless.
    }
  }
}
