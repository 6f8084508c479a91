package dev.agentdesk.aci.recording;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.imageio.ImageIO;

/**
 * Sends a recording's client messages (actions and queries, each with its recorded call id) to a
 * runtime again, connection by connection, with their recorded timing or as fast as the replies
 * come, and compares every reply with the recorded one: type and ok; for an observation the frame
 * hash, else the share of differing pixels against a threshold, and the tree_text. It stops at the
 * first divergence and writes both images into the report folder. Screencast frames are not
 * compared (their timing is not the action's); every message sent is checked against the schema.
 */
public final class Replayer {
  /**
   * {@code fast}: ignore the recorded timing; {@code pixelThreshold}: the share of pixels (0..1)
   * that may differ when frame hashes do not match; {@code replyTimeout}: how long one reply may
   * take; {@code reportDir}: where divergent images go.
   */
  public record Options(boolean fast, double pixelThreshold, Duration replyTimeout, Path reportDir) {
    public Options {
      java.util.Objects.requireNonNull(replyTimeout, "replyTimeout");
      java.util.Objects.requireNonNull(reportDir, "reportDir");
      if (pixelThreshold < 0 || pixelThreshold > 1) {
        throw new IllegalArgumentException("pixel threshold must be 0 to 1, got " + pixelThreshold);
      }
    }
  }

  /** A pixel counts as different when a channel differs by more than this (codec noise stays below). */
  static final int CHANNEL_TOLERANCE = 8;
  private static final Set<String> REPLAYED = Set.of("action", "query");

  private final Recording rec;
  private final URI url;
  private final String token;
  private final Options options;
  private final Consumer<String> progress;
  private int sent;
  private int compared;
  private int observations;

  private Replayer(Recording rec, URI url, String token, Options options, Consumer<String> progress) {
    this.rec = rec;
    this.url = url;
    this.token = token;
    this.options = options;
    this.progress = progress;
  }

  /** Replays {@code rec} against the runtime at {@code url}; {@code progress} hears one line per connection. */
  public static ReplayReport replay(Recording rec, URI url, String token, Options options, Consumer<String> progress) {
    return new Replayer(rec, url, token, options, progress).run();
  }

  private ReplayReport run() {
    Map<Integer, List<Integer>> byConn = new LinkedHashMap<>();
    List<Recording.Entry> all = rec.entries();
    for (int i = 0; i < all.size(); i++) {
      byConn.computeIfAbsent(all.get(i).conn(), k -> new ArrayList<>()).add(i);
    }
    for (Map.Entry<Integer, List<Integer>> conn : byConn.entrySet()) {
      long actions = conn.getValue().stream().map(all::get).filter(this::replayed).count();
      if (actions == 0) {
        continue;
      }
      progress.accept("connection " + conn.getKey() + ": " + actions + " messages to send");
      Divergence d = replayConnection(conn.getValue());
      if (d != null) {
        return new ReplayReport(sent, compared, observations, d);
      }
    }
    return new ReplayReport(sent, compared, observations, null);
  }

  private boolean replayed(Recording.Entry e) {
    return e.isMessage() && e.direction() == Direction.CLIENT_TO_RUNTIME && e.message() != null
        && REPLAYED.contains(e.type());
  }

  /** Replies of the live session, by the call id they answer. */
  private static final class Live implements WebSocket.Listener {
    final Map<String, LinkedBlockingQueue<ObjectNode>> byCall = new ConcurrentHashMap<>();
    final LinkedBlockingQueue<ObjectNode> handshake = new LinkedBlockingQueue<>();
    private final StringBuilder text = new StringBuilder();

    LinkedBlockingQueue<ObjectNode> queue(String id) {
      return byCall.computeIfAbsent(id, k -> new LinkedBlockingQueue<>());
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        JsonNode n = WireCodec.parse(text.toString());
        text.setLength(0);
        if (n instanceof ObjectNode o) {
          String id = answers(o);
          if (id != null) {
            queue(id).add(o);
          } else if (!o.has("stream")) {
            handshake.add(o);
          }
        }
      }
      ws.request(1);
      return null;
    }
  }

  /** The call id a runtime message answers, or null (welcome, pong, a stream frame). */
  static String answers(JsonNode m) {
    if (m.has("stream")) {
      return null;
    }
    if (m.path("call_id").isTextual()) {
      return m.get("call_id").asText();
    }
    return m.path("cause").isTextual() ? m.get("cause").asText() : null;
  }

  private Divergence replayConnection(List<Integer> indexes) {
    List<Recording.Entry> all = rec.entries();
    Live live = new Live();
    HttpClient http = HttpClient.newHttpClient();
    WebSocket ws;
    try {
      ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10)).buildAsync(url, live)
          .get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new RecordingException("cannot connect to " + url + ": " + e.getMessage(), e);
    }
    try {
      ObjectNode hello = JsonNodeFactory.instance.objectNode();
      hello.put("type", "hello").put("v", 0);
      hello.putObject("client").put("name", "agentdesk-replay").put("version", "0.1.0");
      if (token != null) {
        hello.put("token", token);
      }
      send(ws, WireCodec.write(hello));
      ObjectNode welcome = take(live.handshake, "the welcome");
      if (!"welcome".equals(welcome.path("type").asText())) {
        throw new RecordingException("the runtime refused the hello: " + welcome.path("error").asText(welcome.toString()));
      }
      long start = System.nanoTime();
      double t0 = -1;
      for (int k = 0; k < indexes.size(); k++) {
        int i = indexes.get(k);
        Recording.Entry e = all.get(i);
        if (!replayed(e)) {
          continue;
        }
        if (t0 < 0) {
          t0 = e.tMs();
        }
        if (!options.fast()) {
          long due = start + (long) ((e.tMs() - t0) * 1e6);
          long wait = due - System.nanoTime();
          if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
          }
        }
        String id = e.message().path("call_id").asText();
        List<Recording.Entry> expected = new ArrayList<>();
        for (int j = k + 1; j < indexes.size(); j++) {
          Recording.Entry r = all.get(indexes.get(j));
          if (r.isMessage() && r.direction() == Direction.RUNTIME_TO_CLIENT && r.message() != null
              && id.equals(answers(r.message()))) {
            expected.add(r);
          }
        }
        String text = WireCodec.write(e.message());
        var errors = WireContract.bundled().validate("#", text);
        if (!errors.isEmpty()) {
          throw new RecordingException("recorded message " + id + " does not validate against the ACI schema, "
              + "not sent: " + errors.get(0));
        }
        send(ws, text);
        sent++;
        for (int r = 0; r < expected.size(); r++) {
          ObjectNode got = take(live.queue(id), "reply " + (r + 1) + " to " + id);
          Divergence d = compare(i, id, expected.get(r).message(), got, r);
          compared++;
          if (d != null) {
            return d;
          }
        }
      }
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RecordingException("replay interrupted", e);
    } finally {
      ws.sendClose(WebSocket.NORMAL_CLOSURE, "replay done").exceptionally(x -> null);
    }
  }

  private static void send(WebSocket ws, String text) {
    ws.sendText(text, true).join();
  }

  private ObjectNode take(LinkedBlockingQueue<ObjectNode> q, String what) throws InterruptedException {
    ObjectNode m = q.poll(options.replyTimeout().toMillis(), TimeUnit.MILLISECONDS);
    if (m == null) {
      throw new RecordingException("no " + what + " within " + options.replyTimeout().toMillis() + " ms");
    }
    return m;
  }

  private Divergence compare(int index, String id, ObjectNode recorded, ObjectNode replayed, int nth)
      throws InterruptedException {
    String rt = recorded.path("type").asText();
    String pt = replayed.path("type").asText();
    if (!rt.equals(pt)) {
      return new Divergence(index, id, "reply " + (nth + 1) + " is " + pt + ", the recording has " + rt, null, null,
          null);
    }
    if (recorded.has("ok") && recorded.path("ok").asBoolean() != replayed.path("ok").asBoolean()) {
      return new Divergence(index, id, rt + " ok=" + replayed.path("ok").asBoolean() + " ("
          + replayed.path("error").asText("") + "), the recording has ok=" + recorded.path("ok").asBoolean() + " ("
          + recorded.path("error").asText("") + ")", null, null, null);
    }
    if ("exec_exit".equals(rt) && !recorded.path("exit_code").equals(replayed.path("exit_code"))) {
      return new Divergence(index, id, "exec exit code " + replayed.path("exit_code") + ", the recording has "
          + recorded.path("exit_code"), null, null, null);
    }
    if (!"observation".equals(rt)) {
      return null;
    }
    observations++;
    if (recorded.has("tree_text") || replayed.has("tree_text")) {
      String diff = TreeDiff.of(recorded.path("tree_text").asText(""), replayed.path("tree_text").asText(""));
      if (diff != null) {
        return new Divergence(index, id, "the accessibility tree differs", null, null, diff);
      }
    }
    String rh = recorded.path("frame_hash").asText(null);
    String ph = replayed.path("frame_hash").asText(null);
    if (rh != null && rh.equals(ph)) {
      return null;
    }
    byte[] before = image(recorded, true);
    byte[] after = image(replayed, false);
    if (before == null && after == null) {
      return rh == null ? null : new Divergence(index, id, "frame " + ph + ", the recording has " + rh, null, null,
          null);
    }
    if (before == null || after == null) {
      return writeImages(index, id, (before == null ? "the recording" : "the replay")
          + " has no image to compare (frame " + (rh == null ? "-" : rh) + " vs " + (ph == null ? "-" : ph) + ")",
          before, after);
    }
    double share = PixelDiff.share(decode(before), decode(after), CHANNEL_TOLERANCE);
    if (share > options.pixelThreshold()) {
      return writeImages(index, id, String.format("%.2f%% of pixels differ (threshold %.2f%%)", share * 100,
          options.pixelThreshold() * 100), before, after);
    }
    return null;
  }

  private byte[] image(ObjectNode m, boolean recorded) {
    JsonNode ref = m.path("image").path("ref");
    if (!ref.isTextual()) {
      return null;
    }
    return recorded ? rec.frame(ref.asText()) : Base64.getDecoder().decode(ref.asText());
  }

  private static BufferedImage decode(byte[] bytes) {
    try {
      BufferedImage img = ImageIO.read(new ByteArrayInputStream(bytes));
      if (img == null) {
        throw new RecordingException("an image is neither png nor jpeg");
      }
      return img;
    } catch (IOException e) {
      throw new RecordingException("cannot decode an image: " + e.getMessage(), e);
    }
  }

  private Divergence writeImages(int index, String id, String what, byte[] before, byte[] after) {
    Path a = null;
    Path b = null;
    try {
      Files.createDirectories(options.reportDir());
      if (before != null) {
        a = options.reportDir().resolve("divergence-" + index + "-recorded.png");
        Files.write(a, before);
      }
      if (after != null) {
        b = options.reportDir().resolve("divergence-" + index + "-replayed.png");
        Files.write(b, after);
      }
    } catch (IOException e) {
      throw new RecordingException("cannot write the divergence images to " + options.reportDir() + ": "
          + e.getMessage(), e);
    }
    return new Divergence(index, id, what, a, b, null);
  }
}
