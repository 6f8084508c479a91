package dev.agentdesk.aci.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.client.StreamCompositor;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Playback of a real recording: a runtime on Xvfb with an xterm, recorded through the proxy while a
 * client runs a delta screencast, types, clicks and takes lossless screenshots. The composed
 * screencast frame before each still screenshot equals that screenshot pixel for pixel; every
 * composed frame, asked for in random order, equals what the SDK's compositor builds in order;
 * and damaged folders give typed errors.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 480, height = 320)
class PlaybackTest {
  static final String TOKEN = "playback";
  static final ObserveSpec PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);

  @TempDir
  static Path dir;

  private static AciRuntime runtime;
  private static Process xterm;
  private static Path recorded;

  @BeforeAll
  static void record(XDisplay x) throws Exception {
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(), x.name(),
        SessionLimits.defaults(), "test"));
    ProcessBuilder pb = new ProcessBuilder("xterm", "-title", "probe", "-geometry", "40x8+0+0", "-b", "0", "+sb", "+bc",
        "-e", "cat").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("DISPLAY", x.name());
    xterm = pb.start();
    recorded = dir.resolve("session");
    URI runtimeUri = URI.create("ws://127.0.0.1:" + runtime.port() + "/");
    try (AciClient c = connect(runtimeUri)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (c.listWindows().stream().noneMatch(w -> "probe".equals(w.title()))) {
        assertThat(System.nanoTime()).as("xterm mapped").isLessThan(deadline);
        Thread.sleep(50);
      }
      Thread.sleep(500);
    }
    try (RecordingWriter w = RecordingWriter.open(recorded, RecordingWriter.Limits.defaults());
        RecordingProxy proxy = RecordingProxy.start("127.0.0.1", 0, runtimeUri, w);
        AciClient c = connect(URI.create("ws://127.0.0.1:" + proxy.port() + "/"))) {
      c.screenSize();
      c.startScreencast(PNG, 10.0, true, null);
      c.move(new Target.PointPx(100, 40));
      for (String word : List.of("alpha", "bravo", "charlie", "delta")) {
        for (char ch : word.toCharArray()) {
          c.typeText(String.valueOf(ch));
          c.waitMs(120);
        }
        c.waitMs(600); // the stream ticks after the redraw, so its last frame is the still screen
        c.screenshot(PNG);
      }
      c.act(Action.click(new Target.PointPx(120, 50)).toBuilder().observe(PNG).build());
      c.key("Return");
      c.waitMs(400);
      c.stopScreencast();
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (xterm != null) {
      xterm.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    if (runtime != null) {
      runtime.close();
    }
  }

  static AciClient connect(URI uri) {
    return AciClient.connect(uri, AciClientOptions.defaults().withToken(TOKEN).withCallTimeout(Duration.ofSeconds(15)));
  }

  @Test
  void theTimelineHasEveryEntryWithActionsAndObservationsSummarised() {
    Recording rec = Recording.open(recorded);
    Playback p = Playback.of(rec);
    assertThat(p.steps()).hasSize(rec.entries().size());
    long actions = rec.entries().stream()
        .filter(e -> e.direction() == Direction.CLIENT_TO_RUNTIME && "action".equals(e.type())).count();
    long observations = rec.entries().stream()
        .filter(e -> e.direction() == Direction.RUNTIME_TO_CLIENT && "observation".equals(e.type())).count();
    Playback.Summary s = p.summary();
    assertThat(s.actions()).isEqualTo(actions).isEqualTo(6 + 4 * 2 + 2 * (5 + 5 + 7 + 5));
    assertThat(s.observations()).isEqualTo(observations);
    assertThat(s.steps()).isEqualTo(rec.entries().size());
    assertThat(s.screen()).isEqualTo(new Playback.Size(480, 320));
    assertThat(s.ending().clean()).isTrue();
    assertThat(s.connections()).isEqualTo(1);
    assertThat(s.started()).isNotNull();
    assertThat(s.bytes()).isPositive();
    assertThat(s.durationMs()).isEqualTo(rec.entries().get(rec.entries().size() - 1).tMs());

    List<String> labels = p.steps().stream().filter(st -> st.action() != null).map(st -> st.action().label()).toList();
    assertThat(labels).contains("move (100, 40)", "click (120, 50)", "key Return", "wait 600 ms", "type_text \"a\"");
    Playback.Step click = p.steps().stream().filter(st -> st.action() != null && st.action().verb().equals("click"))
        .findFirst().orElseThrow();
    assertThat(click.action().at()).isEqualTo(new Playback.Point(120, 50));
    assertThat(click.action().observe()).isTrue();
    assertThat(click.dir()).isEqualTo(Direction.CLIENT_TO_RUNTIME);
    // The click's follow-up observation names the click as its cause and becomes the frame.
    Playback.Step follow = p.steps().stream().filter(st -> st.observation() != null
        && click.callId().equals(st.observation().cause())).findFirst().orElseThrow();
    assertThat(follow.observation().kind()).isEqualTo(Playback.ObservationKind.SCREENSHOT);
    assertThat(follow.observation().frameHash()).isNotBlank();
    assertThat(follow.observation().source()).isEqualTo(new Playback.Rect(0, 0, 480, 320));
    assertThat(follow.frame()).isEqualTo(follow.index());
    // Before the first image there is no frame; afterwards every step points back at an image step.
    assertThat(p.steps().get(0).frame()).isEqualTo(-1);
    for (Playback.Step st : p.steps()) {
      if (st.frame() >= 0) {
        assertThat(st.frame()).isLessThanOrEqualTo(st.index());
        assertThat(p.steps().get(st.frame()).observation().kind())
            .isIn(Playback.ObservationKind.SCREENSHOT, Playback.ObservationKind.KEYFRAME, Playback.ObservationKind.DELTA);
      }
    }
  }

  @Test
  void theComposedStreamFrameBeforeEachStillScreenshotIsThatScreenshot() throws Exception {
    Playback p = Playback.open(recorded);
    int compared = 0;
    for (Playback.Step st : p.steps()) {
      if (st.observation() == null || st.observation().kind() != Playback.ObservationKind.SCREENSHOT
          || st.observation().cause() != null && st.observation().cause().equals(clickCall(p))) {
        continue;
      }
      Playback.Frame shot = p.frame(st.index());
      assertThat(shot.composed()).isFalse();
      assertThat(shot.step()).isEqualTo(st.index());
      // The step before the screenshot shows the stream's latest frame.
      Playback.Frame before = p.frame(st.index() - 1);
      assertThat(before.step()).isNotEqualTo(st.index());
      Playback.Observation o = p.steps().get(before.step()).observation();
      if (o.kind() == Playback.ObservationKind.DELTA) {
        assertThat(before.composed()).isTrue();
        compared++;
      }
      assertThat(Arrays.equals(pixels(before.bytes()), pixels(shot.bytes())))
          .as("frame of step %d against the screenshot at %d", before.step(), st.index()).isTrue();
    }
    assertThat(compared).as("screenshots preceded by a composed delta frame").isGreaterThanOrEqualTo(3);
  }

  @Test
  void everyComposedFrameInRandomOrderEqualsTheSdkCompositorInOrder() throws Exception {
    Recording rec = Recording.open(recorded);
    Playback p = Playback.of(rec);
    Map<Integer, int[]> expected = new HashMap<>();
    StreamCompositor model = new StreamCompositor();
    for (Playback.Step st : p.steps()) {
      if (st.observation() != null && st.observation().stream() != null) {
        ObservationMsg msg = (ObservationMsg) WireCodec.decode(rec.withImages(rec.entries().get(st.index()).message()));
        expected.put(st.index(), argb(model.apply(msg).image()));
      }
    }
    assertThat(expected.size()).isGreaterThan(12);
    assertThat(p.steps().stream().filter(st -> st.observation() != null
        && st.observation().kind() == Playback.ObservationKind.DELTA).count()).isGreaterThan(10);
    List<Integer> order = new ArrayList<>(expected.keySet());
    Collections.shuffle(order, new Random(7));
    for (int step : order) {
      assertThat(Arrays.equals(pixels(p.frame(step).bytes()), expected.get(step))).as("frame of step %d", step).isTrue();
    }
  }

  @Test
  void aTruncatedRecordingPlaysUpToTheCut() throws Exception {
    Path cut = copy(recorded, dir.resolve("cut"));
    Path seg = cut.resolve("segment-000001.jsonl");
    String text = Files.readString(seg, StandardCharsets.UTF_8);
    // Cut the file in the middle of the line of the last screenshot's observation, as a kill would.
    int last = text.lastIndexOf("\"frame_hash\"");
    Files.writeString(seg, text.substring(0, last));
    Playback p = Playback.open(cut);
    Playback.Summary s = p.summary();
    assertThat(s.ending().clean()).isFalse();
    assertThat(s.ending().tornLines()).isEqualTo(1);
    assertThat(s.ending().openConnections()).containsExactly(1);
    assertThat(s.ending().reason()).contains("last line").contains("connection 1 was still open");
    assertThat(s.steps()).isLessThan(Playback.open(recorded).summary().steps());
    Playback.Step lastStep = p.steps().get(p.steps().size() - 1);
    assertThat(p.frame(lastStep.index()).bytes()).isNotEmpty();
  }

  @Test
  void damagedFoldersAreTypedErrorsNamingTheFile() throws Exception {
    Path v2 = copy(recorded, dir.resolve("v2"));
    Path seg = v2.resolve("segment-000001.jsonl");
    Files.writeString(seg, Files.readString(seg).replaceFirst("\"v\":1", "\"v\":2"));
    assertThatThrownBy(() -> Playback.open(v2)).isInstanceOfSatisfying(RecordingException.class, e -> {
      assertThat(e.kind()).isEqualTo(RecordingException.Kind.UNSUPPORTED_VERSION);
      assertThat(e.file()).isEqualTo(seg);
      assertThat(e.getMessage()).contains(seg.toString()).contains("format v2").contains("reads v1");
    });

    Path corrupt = copy(recorded, dir.resolve("corrupt"));
    Path cseg = corrupt.resolve("segment-000001.jsonl");
    List<String> lines = new ArrayList<>(Files.readAllLines(cseg));
    lines.set(5, "{\"t\": garbage");
    Files.write(cseg, lines);
    assertThatThrownBy(() -> Playback.open(corrupt)).isInstanceOfSatisfying(RecordingException.class, e -> {
      assertThat(e.kind()).isEqualTo(RecordingException.Kind.CORRUPT);
      assertThat(e.file()).isEqualTo(cseg);
      assertThat(e.getMessage()).contains(cseg + " line 6 is not JSON").contains("move the segment out");
    });

    // A frame file gone: the timeline still opens, that frame is a typed error.
    Path missing = copy(recorded, dir.resolve("missing"));
    Playback p = Playback.open(missing);
    Playback.Step shot = p.steps().stream().filter(st -> st.observation() != null
        && st.observation().kind() == Playback.ObservationKind.SCREENSHOT).findFirst().orElseThrow();
    String ref = Recording.open(missing).entries().get(shot.index()).message().path("image").path("ref").asText();
    try (var files = Files.list(missing.resolve("frames"))) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().startsWith(ref.substring("frame:".length()))) {
          Files.delete(f);
        }
      }
    }
    assertThatThrownBy(() -> p.frame(shot.index())).isInstanceOfSatisfying(RecordingException.class,
        e -> assertThat(e.kind()).isEqualTo(RecordingException.Kind.MISSING_FRAME));
    assertThatThrownBy(() -> p.frame(p.steps().size())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.frame(0)).isInstanceOf(java.util.NoSuchElementException.class);
  }

  @Test
  void aDeltaWhoseKeyframeWasDroppedIsNamedAndTheScreenStaysAsItWas() throws Exception {
    Path dropped = copy(recorded, dir.resolve("dropped"));
    Path seg = dropped.resolve("segment-000001.jsonl");
    List<String> kept = new ArrayList<>();
    for (String line : Files.readAllLines(seg)) {
      boolean keyframe = line.contains("\"stream\"") && line.contains("\"image\"");
      if (!keyframe) {
        kept.add(line);
      }
    }
    Files.write(seg, kept);
    Playback p = Playback.open(dropped);
    Playback.Step delta = p.steps().stream().filter(st -> st.observation() != null
        && st.observation().kind() == Playback.ObservationKind.DELTA).findFirst().orElseThrow();
    assertThat(delta.observation().problem()).contains("before any keyframe");
    assertThat(delta.frame()).isNotEqualTo(delta.index());
  }

  private static String clickCall(Playback p) {
    return p.steps().stream().filter(st -> st.action() != null && st.action().verb().equals("click")).findFirst()
        .orElseThrow().callId();
  }

  static int[] pixels(byte[] encoded) throws Exception {
    return argb(ImageIO.read(new ByteArrayInputStream(encoded)));
  }

  static int[] argb(BufferedImage img) {
    int[] px = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
    for (int i = 0; i < px.length; i++) {
      px[i] |= 0xff000000;
    }
    return px;
  }

  static Path copy(Path from, Path to) throws Exception {
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
