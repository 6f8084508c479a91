package dev.agentdesk.app.serve.recordings;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.testkit.XvfbServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Recordings made once per test JVM by real {@code agentdesk runtime --record DIR} processes on an
 * Xvfb of the test's own with an xterm, driven by a scripted agent-like client: a delta screencast,
 * typing into the xterm, lossless screenshots, a structured observation of a zenity dialog (over
 * a session bus with AT-SPI) and a move to its OK button by element ref, a click with
 * observe-after-act. {@code session} ends cleanly (the
 * runtime stopped with SIGTERM); {@code killed} is the folder a runtime SIGKILLed in the middle of
 * the script left; {@code corrupt} and {@code future} are copies of {@code session} with a damaged
 * middle line and a v2 header.
 */
final class RecordedSessions {
  static final String TOKEN = "recorded-sessions";
  static final ObserveSpec PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);
  /** Where the script clicks (with observe-after-act): the page's pointer marker must sit here. */
  static final int CLICK_X = 330;
  static final int CLICK_Y = 250;

  private static Path folder;

  private RecordedSessions() {}

  /** The recordings folder, made on first use. */
  static synchronized Path folder() {
    if (folder == null) {
      try {
        folder = make();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return folder;
  }

  private static Path make() throws IOException, InterruptedException {
    Path root = Files.createTempDirectory("agentdesk-recordings");
    Path work = Files.createTempDirectory("agentdesk-recording-work");
    Path token = Files.writeString(work.resolve("token"), TOKEN + "\n");
    try (XvfbServer x = XvfbServer.start(480, 320); Accessible bus = Accessible.start(x.display().name(), work)) {
      Process xterm = xterm(x.display().name());
      try {
        Process rt = runtime(x.display().name(), token, root.resolve("session"), work, bus.address);
        try (AciClient c = connect(url(rt, work))) {
          awaitXterm(c);
          script(c, true);
        }
        rt.destroy(); // SIGTERM: the runtime closes its connections and the recording
        rt.waitFor(20, TimeUnit.SECONDS);

        Process killed = runtime(x.display().name(), token, root.resolve("killed"), work, bus.address);
        AciClient c = connect(url(killed, work));
        script(c, false);
        killed.destroyForcibly().waitFor(20, TimeUnit.SECONDS); // SIGKILL while the client is connected
        c.close();
      } finally {
        xterm.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    }
    Path corrupt = copy(root.resolve("session"), root.resolve("corrupt"));
    Path seg = corrupt.resolve("segment-000001.jsonl");
    List<String> lines = new ArrayList<>(Files.readAllLines(seg));
    lines.set(4, lines.get(4).substring(0, lines.get(4).length() / 2));
    Files.write(seg, lines);
    Path future = copy(root.resolve("session"), root.resolve("future"));
    Path fseg = future.resolve("segment-000001.jsonl");
    Files.writeString(fseg, Files.readString(fseg).replaceFirst("\"v\":1", "\"v\":2"));
    Files.createDirectories(root.resolve("notes")); // a folder without segments is not listed
    return root;
  }

  /**
   * Look, type a character at a time (the stream sends a delta per change), look again when the
   * screen is still, click with observe-after-act, press Return. {@code whole}: the entire script,
   * else its first half, leaving the screencast running (what a killed runtime cuts short).
   */
  private static void script(AciClient c, boolean whole) {
    c.screenSize();
    c.startScreencast(PNG, 10.0, true, null);
    c.move(new Target.PointPx(300, 240));
    List<String> words = whole ? List.of("alpha", "bravo", "charlie") : List.of("xray");
    for (String word : words) {
      for (char ch : word.toCharArray()) {
        c.typeText(String.valueOf(ch));
        c.waitMs(120);
      }
      c.waitMs(600);
      c.screenshot(PNG);
    }
    if (whole) {
      // The accessibility tree of the desktop (a zenity dialog), and a click on its OK button by ref.
      var tree = c.observe(null, null);
      String ok = tree.elements().stream().filter(e -> "push button".equals(e.role()) && "OK".equals(e.name()))
          .map(e -> e.ref()).findFirst().orElseThrow(() -> new IllegalStateException("no OK button in " + tree.treeText()));
      c.move(new Target.ElementRef(ok));
    }
    if (!whole) {
      c.typeText("z");
      c.waitMs(400);
      return;
    }
    c.act(Action.click(new Target.PointPx(CLICK_X, CLICK_Y)).toBuilder().observe(PNG).build());
    c.key("Return");
    c.waitMs(400);
    c.stopScreencast();
  }

  /**
   * A session bus with the AT-SPI bus on it and a zenity dialog (GTK, accessible) on the display:
   * what the runtime's structured observation reads.
   */
  static final class Accessible implements AutoCloseable {
    final String address;
    private final List<Process> processes;

    private Accessible(String address, List<Process> processes) {
      this.address = address;
      this.processes = processes;
    }

    static Accessible start(String display, Path work) throws IOException, InterruptedException {
      Process bus = new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--print-address=1")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String address = new BufferedReader(new InputStreamReader(bus.getInputStream(), StandardCharsets.UTF_8)).readLine();
      if (address == null || address.isBlank()) {
        bus.destroyForcibly();
        throw new IOException("dbus-daemon printed no address");
      }
      Path xdg = Files.createDirectories(work.resolve("xdg-runtime"));
      Files.setPosixFilePermissions(xdg, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
      List<Process> all = new ArrayList<>(List.of(bus));
      ProcessBuilder launcher = new ProcessBuilder("/usr/libexec/at-spi-bus-launcher", "--launch-immediately")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      env(launcher, display, address, xdg);
      all.add(launcher.start());
      Thread.sleep(800);
      ProcessBuilder dialog = new ProcessBuilder("zenity", "--info", "--title=Recorded", "--text=Recorded session")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      env(dialog, display, address, xdg);
      all.add(dialog.start());
      Thread.sleep(1500);
      return new Accessible(address, all);
    }

    private static void env(ProcessBuilder pb, String display, String address, Path xdg) {
      var env = pb.environment();
      env.put("DISPLAY", display);
      env.put("DBUS_SESSION_BUS_ADDRESS", address);
      env.put("GTK_A11Y", "atspi");
      env.put("ACCESSIBILITY_ENABLED", "1");
      env.put("GSETTINGS_BACKEND", "memory");
      env.put("GDK_BACKEND", "x11");
      env.put("LANG", "C.UTF-8");
      env.put("XDG_RUNTIME_DIR", xdg.toString());
    }

    @Override
    public void close() throws InterruptedException {
      for (int i = processes.size() - 1; i >= 0; i--) {
        Process p = processes.get(i);
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    }
  }

  private static Process xterm(String display) throws IOException {
    ProcessBuilder pb = new ProcessBuilder("xterm", "-title", "probe", "-geometry", "40x8+230+200", "-b", "0", "+sb", "+bc",
        "-e", "cat").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("DISPLAY", display);
    return pb.start();
  }

  private static void awaitXterm(AciClient c) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (c.listWindows().stream().noneMatch(w -> "probe".equals(w.title()))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("xterm did not map");
      }
      Thread.sleep(50);
    }
    Thread.sleep(500);
  }

  /** {@code agentdesk runtime} in a child JVM, as the launcher runs it. */
  private static Process runtime(String display, Path token, Path record, Path work, String bus) throws IOException {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", cp, "dev.agentdesk.app.Main", "runtime", "--listen",
        "127.0.0.1:0", "--token-file", token.toString(), "--display", display, "--record", record.toString());
    pb.redirectError(work.resolve(record.getFileName() + "-stderr.txt").toFile());
    pb.environment().put("DBUS_SESSION_BUS_ADDRESS", bus);
    return pb.start();
  }

  private static URI url(Process p, Path work) throws IOException {
    URI u = dev.agentdesk.app.RuntimeListening.await(p, Duration.ofSeconds(60));
    if (u != null) {
      return u;
    }
    p.destroyForcibly();
    StringBuilder err = new StringBuilder();
    try (var files = Files.list(work)) {
      for (Path f : files.filter(f -> f.toString().endsWith("-stderr.txt")).toList()) {
        err.append(Files.readString(f));
      }
    }
    throw new IOException("agentdesk runtime did not start: " + err);
  }

  private static AciClient connect(URI uri) {
    return AciClient.connect(uri, AciClientOptions.defaults().withToken(TOKEN).withCallTimeout(Duration.ofSeconds(15)));
  }

  static Path copy(Path from, Path to) throws IOException {
    try (var all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }
}
