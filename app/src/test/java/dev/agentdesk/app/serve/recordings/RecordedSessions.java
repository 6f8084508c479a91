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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recordings made once per test JVM by real {@code agentdesk runtime --record DIR} processes on an
 * Xvfb of the test's own with an xterm, driven by a scripted agent-like client: a delta screencast,
 * typing, lossless screenshots, a click with observe-after-act. {@code session} ends cleanly (the
 * runtime stopped with SIGTERM); {@code killed} is the folder a runtime SIGKILLed in the middle of
 * the script left; {@code corrupt} and {@code future} are copies of {@code session} with a damaged
 * middle line and a v2 header.
 */
final class RecordedSessions {
  static final String TOKEN = "recorded-sessions";
  static final ObserveSpec PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);
  /** Where the script clicks (with observe-after-act): the page's pointer marker must sit here. */
  static final int CLICK_X = 120;
  static final int CLICK_Y = 50;
  private static final Pattern LISTENING = Pattern.compile("listening on (ws://127\\.0\\.0\\.1:\\d+/)");

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
    try (XvfbServer x = XvfbServer.start(480, 320)) {
      Process xterm = xterm(x.display().name());
      try {
        Process rt = runtime(x.display().name(), token, root.resolve("session"), work);
        try (AciClient c = connect(url(rt, work))) {
          awaitXterm(c);
          script(c, true);
        }
        rt.destroy(); // SIGTERM: the runtime closes its connections and the recording
        rt.waitFor(20, TimeUnit.SECONDS);

        Process killed = runtime(x.display().name(), token, root.resolve("killed"), work);
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
    c.move(new Target.PointPx(100, 40));
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
      try {
        c.observe(null, null);
      } catch (RuntimeException e) {
        System.err.println("RecordedSessions: observe failed: " + e);
      }
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

  private static Process xterm(String display) throws IOException {
    ProcessBuilder pb = new ProcessBuilder("xterm", "-title", "probe", "-geometry", "40x8+0+0", "-b", "0", "+sb", "+bc",
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
  private static Process runtime(String display, Path token, Path record, Path work) throws IOException {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", cp, "dev.agentdesk.app.Main", "runtime", "--listen",
        "127.0.0.1:0", "--token-file", token.toString(), "--display", display, "--record", record.toString());
    pb.redirectError(work.resolve(record.getFileName() + "-stderr.txt").toFile());
    return pb.start();
  }

  private static URI url(Process p, Path work) throws IOException {
    CompletableFuture<String> found = CompletableFuture.supplyAsync(() -> {
      try {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = r.readLine()) != null; ) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            return m.group(1);
          }
        }
        return null;
      } catch (IOException e) {
        return null;
      }
    });
    try {
      String u = found.get(60, TimeUnit.SECONDS);
      if (u != null) {
        return URI.create(u);
      }
    } catch (Exception e) {
      // reported below with the runtime's stderr
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
