package dev.agentdesk.app.aci;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.recording.RecordingProxy;
import dev.agentdesk.aci.recording.RecordingWriter;
import dev.agentdesk.aci.wire.Bbox;
import dev.agentdesk.aci.wire.Element;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.testkit.XvfbServer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay as issue #33 found it broken: a session recorded against a real Xvfb, a real
 * {@code agentdesk runtime} and a zenity entry dialog (GTK, its caret blinking, on the
 * accessibility bus), replayed with {@code agentdesk aci replay --fast} onto a fresh Xvfb, runtime
 * and dialog. Beside the dialog a small xterm shows a mark that differs from desktop to desktop:
 * a change of a few dozen pixels that stands for a clock, so exact frames always differ.
 */
class ReplayDesktopTest {
  static final String TOKEN = "replay-desktop";
  static final String QUESTION = "Type here";
  static final ObserveSpec PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path dir;

  private static Path recording;

  @BeforeAll
  static void record() throws Exception {
    recording = dir.resolve("session");
    try (Desktop d = Desktop.start(dir.resolve("d0"), QUESTION, "mark-A");
        RecordingWriter w = RecordingWriter.open(recording, RecordingWriter.Limits.defaults());
        RecordingProxy proxy = RecordingProxy.start("127.0.0.1", 0, d.url, w);
        AciClient c = connect(URI.create("ws://127.0.0.1:" + proxy.port() + "/"))) {
      // An agent's session: look, point at the entry, type, look at the pixels and at the tree, confirm.
      c.move(new Target.PointPx(d.entryX, d.entryY));
      c.waitMs(500);
      c.screenshot(PNG);
      c.typeText("hello");
      c.waitMs(500);
      c.screenshot(PNG);
      c.observe(null, null);
      c.key("Return");
      // the last look only once zenity has answered (and so closes): taken on a timer alone, a loaded
      // machine recorded the dialog still up, and every replay then diverged at this screenshot
      assertThat(d.answer()).as("zenity's answer in the recorded session").isEqualTo("hello");
      c.waitMs(500);
      c.screenshot(PNG);
    }
  }

  @Test
  void theDefaultComparisonPassesOnAFreshDesktopAndTheInputLands() throws Exception {
    try (Desktop d = Desktop.start(dir.resolve("d1"), QUESTION, "mark-B")) {
      CliRun r = replay(d, dir.resolve("report-default"));
      assertThat(r.exit()).as(r.out() + r.err()).isZero();
      assertThat(r.out()).isEqualTo("matched: 10 messages sent, 10 replies compared (4 observations)\n");
      assertThat(d.answer()).isEqualTo("hello");
      assertThat(dir.resolve("report-default")).doesNotExist();
    }
  }

  @Test
  void strictStopsAtTheFirstFrameThatIsNotExactAndKeepsTheImages() throws Exception {
    try (Desktop d = Desktop.start(dir.resolve("d2"), QUESTION, "mark-C")) {
      Path report = dir.resolve("report-strict");
      CliRun r = replay(d, report, "--strict");
      assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
      assertThat(r.out()).containsPattern("diverged at recording entry \\d+ \\(call c\\d+-3\\): \\d+\\.\\d\\d% of pixels "
          + "differ \\(threshold 0\\.00%\\), within \\d+,\\d+,\\d+,\\d+ of the image")
          .contains("stopped at the first divergence: 3 of 10 messages sent");
      try (var files = Files.list(report)) {
        List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
        assertThat(names).hasSize(3).allMatch(n -> n.matches("divergence-\\d+-1-(recorded|replayed|diff)\\.png"));
      }
      // What strict catches is what the default lets pass: a change far under 1 % (the mark, the caret if it blinked).
      Matcher share = Pattern.compile("(\\d+\\.\\d\\d)% of pixels differ").matcher(r.out());
      assertThat(share.find()).isTrue();
      assertThat(Double.parseDouble(share.group(1))).isPositive().isLessThan(1.0);
    }
  }

  @Test
  void masksOverTheEntryAndTheMarkMakeThresholdZeroPass() throws Exception {
    try (Desktop d = Desktop.start(dir.resolve("d4"), QUESTION, "mark-E")) {
      CliRun r = replay(d, dir.resolve("report-masks"), "--threshold", "0", "--mask", d.entryRect, "--mask", "390,280,90,40");
      assertThat(r.exit()).as(r.out() + r.err()).isZero();
      assertThat(r.out()).startsWith("matched: 10 messages sent");
    }
  }

  @Test
  void continuePlaysToTheEndAndListsEveryDivergence() throws Exception {
    // Deliberately not the recorded start state: the dialog asks something else (longer: a wider dialog).
    try (Desktop d = Desktop.start(dir.resolve("d3"), "A different and much longer question than the recorded one",
        "mark-D")) {
      Path report = dir.resolve("report-continue");
      CliRun r = replay(d, report, "--continue", "--json");
      assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
      JsonNode j = JSON.readTree(r.out());
      assertThat(j.path("matched").asBoolean()).isFalse();
      assertThat(j.path("played_to_the_end").asBoolean()).isTrue();
      assertThat(j.path("sent").asInt()).isEqualTo(10);
      List<String> calls = new ArrayList<>();
      for (JsonNode dv : j.path("divergences")) {
        calls.add(dv.path("call_id").asText().replaceFirst("^c\\d+-", "call "));
        if (dv.path("what").asText().contains("pixels differ")) {
          for (String k : List.of("recorded_image", "replayed_image", "diff_image")) {
            Path img = Path.of(dv.path(k).asText());
            assertThat(img).exists();
            assertThat(ImageIO.read(img.toFile())).isNotNull();
          }
        }
      }
      // The two screenshots with the dialog up and the tree; the last screenshot (dialog gone) matches.
      assertThat(calls).containsExactly("call 3", "call 6", "call 7");
      assertThat(j.path("divergences").get(2).path("what").asText()).contains("the accessibility tree differs");
      assertThat(j.path("divergences").get(2).path("tree_diff").asText()).contains(QUESTION)
          .contains("A different and much longer question");
      // Played to the end: the keys after the divergences reached the dialog.
      assertThat(d.answer()).isEqualTo("hello");
    }
  }

  private static CliRun replay(Desktop d, Path report, String... more) {
    List<String> args = new ArrayList<>(List.of("aci", "replay", recording.toString(), "--fast", "--url",
        d.url.toString(), "--token-file", d.token.toString(), "--report-dir", report.toString()));
    if (List.of(more).contains("--json")) {
      args.add(1, "--json");
    }
    for (String m : more) {
      if (!m.equals("--json")) {
        args.add(m);
      }
    }
    return CliRun.run(args.toArray(String[]::new));
  }

  static AciClient connect(URI uri) {
    return AciClient.connect(uri, AciClientOptions.defaults().withToken(TOKEN).withCallTimeout(Duration.ofSeconds(20)));
  }

  /**
   * A fresh desktop: Xvfb, a session bus with the accessibility bus, a zenity entry dialog asking
   * {@code question} (its answer goes to a file), an xterm showing {@code mark}, and a real
   * {@code agentdesk runtime} in a child JVM. Ready when the dialog is on the accessibility tree
   * and the xterm has drawn its mark.
   */
  static final class Desktop implements AutoCloseable {
    final XvfbServer x;
    final Process session;
    final URI url;
    final Path token;
    final Path answer;
    int entryX;
    int entryY;
    /** The entry's rectangle as --mask takes it: where the caret blinks. */
    String entryRect;

    private Desktop(XvfbServer x, Process session, URI url, Path token, Path answer) {
      this.x = x;
      this.session = session;
      this.url = url;
      this.token = token;
      this.answer = answer;
    }

    static Desktop start(Path work, String question, String mark) throws Exception {
      Files.createDirectories(work);
      Path token = Files.writeString(work.resolve("token"), TOKEN);
      Path xdg = Files.createDirectories(work.resolve("xdg-runtime"));
      Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
      Path answer = work.resolve("answer.txt");
      XvfbServer x = XvfbServer.start(480, 320);
      String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      String script = "/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 &\n"
          + "gdbus wait --session --timeout 20 org.a11y.Bus\n"
          + "zenity --entry --title=Replay --text=\"$QUESTION\" >\"$ANSWER\" 2>/dev/null &\n"
          + "xterm -title mark -geometry 8x1+400+290 -b 0 +sb -e sh -c 'printf %s \"$MARK\"; exec sleep 3600' &\n"
          + "exec \"$JAVA\" -cp \"$CP\" dev.agentdesk.app.Main runtime --listen 127.0.0.1:0 --token-file \"$TOKEN_FILE\""
          + " --display \"$DISPLAY\"\n";
      ProcessBuilder pb = new ProcessBuilder("dbus-run-session", "--", "bash", "-c", script);
      var env = pb.environment();
      env.put("DISPLAY", x.display().name());
      env.put("GTK_A11Y", "atspi");
      env.put("ACCESSIBILITY_ENABLED", "1");
      env.put("GSETTINGS_BACKEND", "memory");
      env.put("GDK_BACKEND", "x11");
      env.put("LANG", "C.UTF-8");
      env.put("XDG_RUNTIME_DIR", xdg.toString());
      env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
      env.put("CP", cp);
      env.put("TOKEN_FILE", token.toString());
      env.put("QUESTION", question);
      env.put("ANSWER", answer.toString());
      env.put("MARK", mark);
      pb.redirectError(work.resolve("stderr.txt").toFile());
      Process p = pb.start();
      URI url;
      try {
        url = listening(p, work);
      } catch (Exception e) {
        end(p);
        x.close();
        throw e;
      }
      Desktop d = new Desktop(x, p, url, token, answer);
      try {
        d.awaitReady(question);
      } catch (Exception e) {
        d.close();
        throw e;
      }
      return d;
    }

    private static URI listening(Process p, Path work) throws IOException {
      URI u = dev.agentdesk.app.RuntimeListening.await(p, Duration.ofSeconds(60));
      if (u != null) {
        return u;
      }
      throw new IOException("agentdesk runtime did not start: " + Files.readString(work.resolve("stderr.txt")));
    }

    /** The dialog on the tree (its entry's centre noted), the mark drawn: dark pixels in the xterm's corner. */
    private void awaitReady(String question) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      try (AciClient c = connect(url)) {
        while (true) {
          var tree = c.observe(null, null);
          Element entry = tree.elements().stream().filter(e -> "text".equals(e.role())).findFirst().orElse(null);
          if (entry != null && tree.treeText() != null && tree.treeText().contains(question) && markDrawn(c)) {
            Bbox b = entry.bbox();
            entryX = (int) (b.x() + b.w() / 2);
            entryY = (int) (b.y() + b.h() / 2);
            entryRect = (int) b.x() + "," + (int) b.y() + "," + (int) Math.ceil(b.w()) + "," + (int) Math.ceil(b.h());
            return;
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the desktop did not come up: " + tree.treeText());
          }
          Thread.sleep(100);
        }
      }
    }

    private static boolean markDrawn(AciClient c) throws IOException {
      var shot = c.screenshot(PNG);
      BufferedImage img = ImageIO.read(new ByteArrayInputStream(shot.image()));
      for (int y = 290; y < 310; y++) {
        for (int x = 400; x < 440; x++) {
          if ((img.getRGB(x, y) & 0xff) < 0x40) {
            return true;
          }
        }
      }
      return false;
    }

    /** What zenity printed when it closed (its answer), waiting for it up to 15 s. */
    String answer() throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (System.nanoTime() < deadline) {
        if (Files.exists(answer) && Files.readString(answer).endsWith("\n")) {
          return Files.readString(answer).strip();
        }
        Thread.sleep(50);
      }
      return Files.exists(answer) ? Files.readString(answer) : null;
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

    @Override
    public void close() {
      end(session);
      x.close();
    }
  }
}
