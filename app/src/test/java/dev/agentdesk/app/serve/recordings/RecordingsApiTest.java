package dev.agentdesk.app.serve.recordings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.recording.Direction;
import dev.agentdesk.aci.recording.Recording;
import dev.agentdesk.app.serve.TestServer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The recordings REST API over recordings made by real {@code agentdesk runtime --record}
 * processes ({@link RecordedSessions}): the list with its damaged entries, the timeline against
 * the recording itself, the composed screen at a step against the screenshot recorded there, the
 * cut recording of a SIGKILLed runtime, typed errors, unknown ids and path traversal.
 */
class RecordingsApiTest {
  static TestServer s;
  static Path folder;

  @BeforeAll
  static void start() {
    folder = RecordedSessions.folder();
    s = TestServer.withRecordings(folder);
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  @Test
  void theListHasEveryRecordingAndSaysWhatIsWrongWithTheDamagedOnes() {
    JsonNode list = s.get("/api/recordings").json();
    assertThat(list.path("folder").asText()).isEqualTo(folder.toAbsolutePath().normalize().toString());
    Map<String, JsonNode> byId = new HashMap<>();
    list.path("recordings").forEach(r -> byId.put(r.path("id").asText(), r));
    assertThat(byId).containsOnlyKeys("session", "killed", "corrupt", "future");

    Recording rec = Recording.open(folder.resolve("session"));
    JsonNode session = byId.get("session");
    assertThat(session.path("actions").asInt()).isEqualTo(count(rec, Direction.CLIENT_TO_RUNTIME, "action"));
    assertThat(session.path("observations").asInt()).isEqualTo(count(rec, Direction.RUNTIME_TO_CLIENT, "observation"));
    assertThat(session.path("steps").asInt()).isEqualTo(rec.entries().size());
    assertThat(session.path("screen").path("w").asInt()).isEqualTo(480);
    assertThat(session.path("screen").path("h").asInt()).isEqualTo(320);
    assertThat(session.path("ending").path("clean").asBoolean()).isTrue();
    assertThat(session.path("duration_ms").asDouble()).isPositive();
    assertThat(session.path("bytes").asLong()).isPositive();
    assertThat(session.path("started").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");

    JsonNode killed = byId.get("killed");
    assertThat(killed.path("ending").path("clean").asBoolean()).isFalse();
    assertThat(killed.path("ending").path("open_connections")).extracting(JsonNode::asInt).containsExactly(1);
    assertThat(killed.path("ending").path("reason").asText()).contains("connection 1 was still open");

    JsonNode corrupt = byId.get("corrupt").path("error");
    assertThat(corrupt.path("code").asText()).isEqualTo("corrupt_recording");
    assertThat(corrupt.path("file").asText()).endsWith("corrupt/segment-000001.jsonl");
    assertThat(corrupt.path("message").asText()).contains("line 5 is not JSON").contains("move the segment out");
    JsonNode future = byId.get("future").path("error");
    assertThat(future.path("code").asText()).isEqualTo("unsupported_recording_version");
    assertThat(future.path("message").asText()).contains("format v2").contains("reads v1");
  }

  @Test
  void theTimelineHasEveryMessageWithItsTimeDirectionAndSummary() {
    Recording rec = Recording.open(folder.resolve("session"));
    JsonNode t = s.get("/api/recordings/session").json();
    JsonNode steps = t.path("steps");
    assertThat(steps.size()).isEqualTo(rec.entries().size());
    for (int i = 0; i < steps.size(); i++) {
      Recording.Entry e = rec.entries().get(i);
      JsonNode st = steps.get(i);
      assertThat(st.path("index").asInt()).isEqualTo(i);
      assertThat(st.path("t_ms").asDouble()).isEqualTo(e.tMs());
      if (e.isMessage()) {
        assertThat(st.path("dir").asText()).isEqualTo(e.direction().wire());
        assertThat(st.path("type").asText()).isEqualTo(e.type());
      } else {
        assertThat(st.path("event").asText()).isEqualTo(e.event());
      }
    }
    List<String> labels = new ArrayList<>();
    steps.forEach(st -> {
      if (st.has("action")) {
        labels.add(st.path("action").path("label").asText());
      }
    });
    assertThat(labels).hasSize(count(rec, Direction.CLIENT_TO_RUNTIME, "action"))
        .contains("move (300, 240)", "type_text \"a\"", "click (330, 250)", "key Return", "wait 600 ms");
    JsonNode click = find(steps, st -> "click".equals(st.path("action").path("verb").asText()));
    assertThat(click.path("action").path("at").path("x").asDouble()).isEqualTo(RecordedSessions.CLICK_X);
    assertThat(click.path("action").path("at").path("y").asDouble()).isEqualTo(RecordedSessions.CLICK_Y);
    // The move to an element ref acts at the centre of that element's box in the observation before it.
    JsonNode tree = find(steps, st -> "tree".equals(st.path("observation").path("kind").asText()));
    assertThat(tree.path("observation").path("tree_text").asText()).contains("OK");
    JsonNode byRef = find(steps, st -> "element_ref".equals(st.path("action").path("target").asText()));
    String ref = byRef.path("action").path("ref").asText();
    JsonNode box = null;
    for (JsonNode el : rec.entries().get(tree.path("index").asInt()).message().path("elements")) {
      if (ref.equals(el.path("ref").asText())) {
        box = el.path("bbox");
      }
    }
    assertThat(box).as("element %s in the observation", ref).isNotNull();
    assertThat(byRef.path("action").path("at").path("x").asDouble()).isEqualTo(box.get(0).asDouble() + box.get(2).asDouble() / 2);
    assertThat(byRef.path("action").path("at").path("y").asDouble()).isEqualTo(box.get(1).asDouble() + box.get(3).asDouble() / 2);
    assertThat(byRef.path("tree").asInt()).isEqualTo(tree.path("index").asInt());
    assertThat(byRef.path("action").path("label").asText()).startsWith("move " + ref + " (");
    JsonNode shot = find(steps, st -> "screenshot".equals(st.path("observation").path("kind").asText()));
    assertThat(shot.path("observation").path("frame_hash").asText()).isNotBlank();
    assertThat(shot.path("observation").path("source").path("w").asInt()).isEqualTo(480);
    assertThat(shot.path("frame").asInt()).isEqualTo(shot.path("index").asInt());
    assertThat(steps.get(0).path("frame").asInt()).isEqualTo(-1);
  }

  @Test
  void theComposedScreenBeforeEachStillScreenshotIsThatScreenshot() throws Exception {
    Recording rec = Recording.open(folder.resolve("session"));
    JsonNode steps = s.get("/api/recordings/session").json().path("steps");
    int composed = 0;
    for (JsonNode st : steps) {
      JsonNode o = st.path("observation");
      if (!"screenshot".equals(o.path("kind").asText()) || !o.path("cause").asText().isEmpty()
          && "click".equals(callVerb(steps, o.path("cause").asText()))) {
        continue;
      }
      int k = st.path("index").asInt();
      HttpResponse<byte[]> shot = frame("session", k);
      assertThat(shot.statusCode()).isEqualTo(200);
      assertThat(shot.headers().firstValue("Content-Type")).hasValue("image/png");
      // A recorded screenshot is served as the file the recorder stored.
      String ref = rec.entries().get(k).message().path("image").path("ref").asText();
      assertThat(shot.body()).isEqualTo(rec.frame(ref));
      HttpResponse<byte[]> before = frame("session", k - 1);
      assertThat(before.headers().firstValue("Server-Timing").orElseThrow()).matches("compose;dur=\\d+\\.\\d\\d");
      int at = Integer.parseInt(before.headers().firstValue("X-Frame-Step").orElseThrow());
      assertThat(at).isLessThan(k).isEqualTo(steps.get(k - 1).path("frame").asInt());
      if (before.headers().firstValue("X-Frame-Composed").orElseThrow().equals("true")) {
        assertThat(steps.get(at).path("observation").path("kind").asText()).isEqualTo("delta");
        composed++;
      }
      assertThat(Arrays.equals(pixels(before.body()), pixels(shot.body())))
          .as("the screen at step %d (frame of step %d) against the screenshot at %d", k - 1, at, k).isTrue();
    }
    assertThat(composed).isGreaterThanOrEqualTo(2);
  }

  @Test
  void theKilledRuntimesRecordingPlaysUpToTheCut() throws Exception {
    JsonNode t = s.get("/api/recordings/killed").json();
    JsonNode steps = t.path("steps");
    Recording rec = Recording.open(folder.resolve("killed"));
    assertThat(steps.size()).isEqualTo(rec.entries().size()).isPositive();
    assertThat(t.path("ending").path("clean").asBoolean()).isFalse();
    JsonNode last = steps.get(steps.size() - 1);
    assertThat(last.path("event").isMissingNode()).as("no close was recorded").isTrue();
    HttpResponse<byte[]> f = frame("killed", last.path("index").asInt());
    assertThat(f.statusCode()).isEqualTo(200);
    assertThat(pixels(f.body()).length).isEqualTo(480 * 320);
  }

  @Test
  void badInputGetsTypedErrors() throws Exception {
    TestServer.Response corrupt = s.get("/api/recordings/corrupt");
    assertThat(corrupt.status()).isEqualTo(422);
    assertThat(corrupt.json().path("code").asText()).isEqualTo("unprocessable");
    assertThat(corrupt.json().path("reason").asText()).isEqualTo("corrupt_recording");
    assertThat(corrupt.json().path("paths").get(0).asText()).endsWith("corrupt/segment-000001.jsonl");
    TestServer.Response future = s.get("/api/recordings/future/frame?step=3");
    assertThat(future.status()).isEqualTo(422);
    assertThat(future.json().path("reason").asText()).isEqualTo("unsupported_recording_version");

    assertThat(s.get("/api/recordings/nope").status()).isEqualTo(404);
    assertThat(s.get("/api/recordings/nope/frame?step=1").status()).isEqualTo(404);
    assertThat(s.get("/api/recordings/notes").status()).isEqualTo(404);
    assertThat(s.get("/api/recordings/session/frame?step=0").json().path("message").asText())
        .contains("no frame had been recorded by step 0");
    assertThat(s.get("/api/recordings/session/frame?step=0").status()).isEqualTo(404);
    assertThat(s.get("/api/recordings/session/frame?step=999999").status()).isEqualTo(404);
    assertThat(s.get("/api/recordings/session/frame?step=abc").status()).isEqualTo(400);
    assertThat(s.get("/api/recordings/session/frame").status()).isEqualTo(400);

    // A recording beside the folder must never be reachable through an id.
    Path outside = folder.getParent().resolve(folder.getFileName() + "-outside");
    if (!Files.exists(outside)) {
      RecordedSessions.copy(folder.resolve("session"), outside);
    }
    for (String id : List.of("..%2F" + outside.getFileName(), "%2E%2E%2F" + outside.getFileName(), "..",
        ".hidden", "a..b", "session%2F..%2F..%2F" + outside.getFileName(), "%2Ftmp")) {
      TestServer.Response r = s.get("/api/recordings/" + id);
      assertThat(r.status()).as(id).isIn(400, 404);
      assertThat(r.body()).as(id).doesNotContain("\"steps\"");
      assertThat(s.get("/api/recordings/" + id + "/frame?step=5").status()).as(id).isIn(400, 404);
    }
    assertThat(s.get("/api/recordings/.hidden").status()).isEqualTo(400);
    assertThat(s.get("/api/recordings/a..b").status()).isEqualTo(400);
  }

  private HttpResponse<byte[]> frame(String id, int step) throws Exception {
    return s.http.send(s.request("/api/recordings/" + id + "/frame?step=" + step).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String callVerb(JsonNode steps, String callId) {
    for (JsonNode st : steps) {
      if (callId.equals(st.path("call_id").asText()) && st.has("action")) {
        return st.path("action").path("verb").asText();
      }
    }
    return null;
  }

  private static JsonNode find(JsonNode steps, java.util.function.Predicate<JsonNode> p) {
    for (JsonNode st : steps) {
      if (p.test(st)) {
        return st;
      }
    }
    throw new AssertionError("no such step");
  }

  private static int count(Recording rec, Direction dir, String type) {
    return (int) rec.entries().stream().filter(e -> e.direction() == dir && type.equals(e.type())).count();
  }

  static int[] pixels(byte[] encoded) throws Exception {
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(encoded));
    int[] px = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
    for (int i = 0; i < px.length; i++) {
      px[i] |= 0xff000000;
    }
    return px;
  }
}
