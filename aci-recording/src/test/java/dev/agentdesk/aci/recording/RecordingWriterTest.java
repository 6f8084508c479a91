package dev.agentdesk.aci.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recording folder: what a line holds, images once, rotation and bounds, and a killed recorder. */
class RecordingWriterTest {
  @TempDir
  Path dir;

  static String observation(String id, String hash, byte[] image) {
    return "{\"type\":\"observation\",\"obs_id\":\"" + id + "\",\"cause\":\"" + id + "\",\"image\":{\"ref\":\""
        + Base64.getEncoder().encodeToString(image) + "\",\"w\":2,\"h\":1,\"format\":\"png\"},\"frame_hash\":\""
        + hash + "\"}";
  }

  private static long files(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  @Test
  void everyMessageBothWaysWithTimeAndImagesStoredOnce() throws Exception {
    Path rec = dir.resolve("rec");
    byte[] png = {1, 2, 3, 4};
    try (RecordingWriter w = RecordingWriter.open(rec, RecordingWriter.Limits.defaults())) {
      int c = w.connectionOpened();
      w.text(c, Direction.CLIENT_TO_RUNTIME, "{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"x\",\"version\":\"1\"},"
          + "\"token\":\"secret\"}");
      w.text(c, Direction.CLIENT_TO_RUNTIME, "{\"type\":\"action\",\"call_id\":\"s1\",\"action\":{\"verb\":\"screenshot\"}}");
      w.text(c, Direction.RUNTIME_TO_CLIENT, observation("s1", "aaaa", png));
      w.text(c, Direction.RUNTIME_TO_CLIENT, observation("s2", "aaaa", png));
      w.text(c, Direction.CLIENT_TO_RUNTIME, "not json {");
      w.connectionClosed(c);
    }
    Recording r = Recording.open(rec);
    List<Recording.Entry> e = r.entries();
    assertThat(e).hasSize(7);
    assertThat(e.get(0).event()).isEqualTo("open");
    assertThat(e.get(1).message().path("token").asText()).isEqualTo("<redacted>");
    assertThat(e.get(2).direction()).isEqualTo(Direction.CLIENT_TO_RUNTIME);
    assertThat(e.get(3).direction()).isEqualTo(Direction.RUNTIME_TO_CLIENT);
    assertThat(e.get(3).message().path("image").path("ref").asText()).isEqualTo("frame:aaaa-2x1-png");
    assertThat(e.get(4).message().path("image").path("ref").asText()).isEqualTo("frame:aaaa-2x1-png");
    assertThat(e.get(5).raw()).isEqualTo("not json {");
    assertThat(e.get(6).event()).isEqualTo("close");
    assertThat(e).extracting(Recording.Entry::tMs).isSorted();
    assertThat(files(rec.resolve("frames"))).isEqualTo(1);
    assertThat(r.frame("frame:aaaa-2x1-png")).containsExactly(png);
    assertThat(r.withImages(e.get(3).message()).path("image").path("ref").asText())
        .isEqualTo(Base64.getEncoder().encodeToString(png));
    assertThat(Files.readString(rec.resolve("segment-000001.jsonl"))).doesNotContain("secret");
    assertThatThrownBy(() -> RecordingWriter.open(rec, RecordingWriter.Limits.defaults()))
        .hasMessageContaining("already holds a recording");
  }

  @Test
  void segmentsRotateAndTheOldestGoWithTheImagesOnlyTheyNamed() throws Exception {
    Path rec = dir.resolve("rot");
    try (RecordingWriter w = RecordingWriter.open(rec, new RecordingWriter.Limits(8192, 40_000))) {
      int c = w.connectionOpened();
      for (int i = 0; i < 400; i++) {
        byte[] unique = new byte[200];
        unique[0] = (byte) i;
        unique[1] = (byte) (i >> 8);
        w.text(c, Direction.RUNTIME_TO_CLIENT, observation("o" + i, String.format("%04x", i), unique));
        assertThat(w.bytes()).isLessThanOrEqualTo(40_000 + 8192 + 1024);
      }
    }
    Recording r = Recording.open(rec);
    assertThat(r.segments()).isGreaterThan(1);
    assertThat(Files.exists(rec.resolve("segment-000001.jsonl"))).isFalse();
    // Every frame the remaining segments name is still there; the dropped ones' frames are gone.
    for (Recording.Entry e : r.entries()) {
      if (e.message() != null && e.message().has("image")) {
        assertThat(r.frame(e.message().path("image").path("ref").asText())).hasSize(200);
      }
    }
    assertThat(files(rec.resolve("frames"))).isLessThan(400);
    assertThat(r.entries().get(r.entries().size() - 1).message().path("obs_id").asText()).isEqualTo("o399");
  }

  @Test
  void aTornLastLineIsLeftOutAndOtherDamageIsNamed() throws Exception {
    Path rec = dir.resolve("torn");
    try (RecordingWriter w = RecordingWriter.open(rec, RecordingWriter.Limits.defaults())) {
      w.connectionOpened();
    }
    Path seg = rec.resolve("segment-000001.jsonl");
    Files.writeString(seg, "{\"t\":5.0,\"conn\":1,\"dir\":\"c2s\",\"msg\":{\"type\":\"pi", StandardOpenOption.APPEND);
    Recording r = Recording.open(rec);
    assertThat(r.tornLines()).isEqualTo(1);
    assertThat(r.entries()).hasSize(1);
    Files.writeString(seg, "\n{\"t\":6.0,\"conn\":1,\"event\":\"close\"}\n", StandardOpenOption.APPEND);
    assertThatThrownBy(() -> Recording.open(rec)).isInstanceOfSatisfying(RecordingException.class, e -> {
      assertThat(e.kind()).isEqualTo(RecordingException.Kind.CORRUPT);
      assertThat(e.file()).isEqualTo(seg);
      assertThat(e.getMessage()).startsWith(seg + " line 3 is not JSON");
    });
    assertThatThrownBy(() -> Recording.open(dir.resolve("none"))).hasMessageStartingWith("no recording folder");
  }

  @Test
  void aKilledRecorderLeavesEveryLineItFinished() throws Exception {
    Path rec = dir.resolve("killed");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), RecorderChild.class.getName(), rec.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    Path seg = rec.resolve("segment-000001.jsonl");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while ((!Files.exists(seg) || Files.size(seg) < 200_000) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    assertThat(child.exitValue()).isNotZero();
    Recording r = Recording.open(rec);
    assertThat(r.tornLines()).isLessThanOrEqualTo(1);
    List<Recording.Entry> e = r.entries();
    assertThat(e.size()).isGreaterThan(100);
    // The messages it finished are all there, in order, each with its image.
    for (int i = 1; i < e.size(); i++) {
      assertThat(e.get(i).message().path("obs_id").asText()).isEqualTo("o" + (i - 1));
      assertThat(r.frame(e.get(i).message().path("image").path("ref").asText())).isNotEmpty();
    }
    String text = Files.readString(seg, StandardCharsets.UTF_8);
    assertThat(text.lines().count()).isGreaterThanOrEqualTo(e.size());
  }
}
