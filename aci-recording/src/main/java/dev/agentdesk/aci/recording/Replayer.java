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
 * come, and compares every reply with the recorded one: type and ok; for an observation the
 * tree_text and the image (the frame hash, else the share of differing pixels outside the masks
 * against a threshold). It stops at the first divergence, or with {@code keepGoing} plays to the
 * end and lists them all; each divergence with images leaves the recorded, the replayed and a diff
 * picture in the report folder. Screencast frames are not compared (their timing is not the
 * action's); every message sent is checked against the schema.
 */
public final class Replayer {
  /**
   * The default share of pixels that may differ: above a blinking caret or a clock (a few hundred
   * pixels), below a window or a dialog that did not come up (ADR 0036).
   */
  public static final double DEFAULT_THRESHOLD = 0.01;

  /** A rectangle in global screen pixels (what an action's point_px means). */
  public record Region(int x, int y, int w, int h) {
    public Region {
      if (w <= 0 || h <= 0) {
        throw new IllegalArgumentException("a region needs a width and height above 0, got " + w + "x" + h);
      }
    }

    /** {@code x,y,w,h}, e.g. {@code 1180,0,100,24}. */
    public static Region parse(String s) {
      String[] p = s.split(",", -1);
      if (p.length != 4) {
        throw new IllegalArgumentException("a region is x,y,w,h (four integers), got '" + s + "'");
      }
      try {
        return new Region(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()), Integer.parseInt(p[2].trim()),
            Integer.parseInt(p[3].trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("a region is x,y,w,h (four integers), got '" + s + "'", e);
      }
    }

    @Override
    public String toString() {
      return x + "," + y + "," + w + "," + h;
    }
  }

  /**
   * {@code fast}: ignore the recorded timing; {@code pixelThreshold}: the share of pixels (0..1)
   * outside {@code masks} that may differ when frame hashes do not match (0 with no masks: exact
   * frames); {@code keepGoing}: play on past a divergence; {@code replyTimeout}: how long one reply
   * may take; {@code reportDir}: where divergent images go.
   */
  public record Options(boolean fast, double pixelThreshold, List<Region> masks, boolean keepGoing,
      Duration replyTimeout, Path reportDir) {
    public Options {
      java.util.Objects.requireNonNull(replyTimeout, "replyTimeout");
      java.util.Objects.requireNonNull(reportDir, "reportDir");
      masks = List.copyOf(masks);
      if (pixelThreshold < 0 || pixelThreshold > 1) {
        throw new IllegalArgumentException("pixel threshold must be 0 to 1, got " + pixelThreshold);
      }
    }

    /** No masks, stopping at the first divergence. */
    public Options(boolean fast, double pixelThreshold, Duration replyTimeout, Path reportDir) {
      this(fast, pixelThreshold, List.of(), false, replyTimeout, reportDir);
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
  private final List<Divergence> divergences = new ArrayList<>();
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
    int total = 0;
    for (int i = 0; i < all.size(); i++) {
      byConn.computeIfAbsent(all.get(i).conn(), k -> new ArrayList<>()).add(i);
      if (replayed(all.get(i))) {
        total++;
      }
    }
    for (Map.Entry<Integer, List<Integer>> conn : byConn.entrySet()) {
      long actions = conn.getValue().stream().map(all::get).filter(this::replayed).count();
      if (actions == 0) {
        continue;
      }
      progress.accept("connection " + conn.getKey() + ": " + actions + " messages to send");
      if (!replayConnection(conn.getValue())) {
        break;
      }
    }
    return new ReplayReport(sent, total, compared, observations, divergences);
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

  /** Plays one connection's messages; false when it stopped at a divergence. */
  private boolean replayConnection(List<Integer> indexes) {
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
            divergences.add(d);
            if (!options.keepGoing()) {
              return false;
            }
          }
        }
      }
      return true;
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

  private Divergence compare(int index, String id, ObjectNode recorded, ObjectNode replayed, int nth) {
    String rt = recorded.path("type").asText();
    String pt = replayed.path("type").asText();
    if (!rt.equals(pt)) {
      return new Divergence(index, id, "reply " + (nth + 1) + " is " + pt + ", the recording has " + rt, null, null,
          null, null);
    }
    if (recorded.has("ok") && recorded.path("ok").asBoolean() != replayed.path("ok").asBoolean()) {
      return new Divergence(index, id, rt + " ok=" + replayed.path("ok").asBoolean() + " ("
          + replayed.path("error").asText("") + "), the recording has ok=" + recorded.path("ok").asBoolean() + " ("
          + recorded.path("error").asText("") + ")", null, null, null, null);
    }
    if ("exec_exit".equals(rt) && !recorded.path("exit_code").equals(replayed.path("exit_code"))) {
      return new Divergence(index, id, "exec exit code " + replayed.path("exit_code") + ", the recording has "
          + recorded.path("exit_code"), null, null, null, null);
    }
    if (!"observation".equals(rt)) {
      return null;
    }
    observations++;
    List<String> what = new ArrayList<>();
    String treeDiff = null;
    if (recorded.has("tree_text") || replayed.has("tree_text")) {
      treeDiff = TreeDiff.of(recorded.path("tree_text").asText(""), replayed.path("tree_text").asText(""));
      if (treeDiff != null) {
        what.add("the accessibility tree differs");
      }
    }
    String rh = recorded.path("frame_hash").asText(null);
    String ph = replayed.path("frame_hash").asText(null);
    byte[] before = image(recorded, true);
    byte[] after = image(replayed, false);
    PixelDiff.Result pixels = null;
    if (rh != null && rh.equals(ph)) {
      // the same frame: nothing to look at
    } else if (before == null && after == null) {
      if (rh != null) {
        what.add("frame " + ph + ", the recording has " + rh);
      }
    } else if (before == null || after == null) {
      what.add((before == null ? "the recording" : "the replay") + " has no image to compare (frame "
          + (rh == null ? "-" : rh) + " vs " + (ph == null ? "-" : ph) + ")");
    } else {
      BufferedImage a = decode(before);
      BufferedImage b = decode(after);
      pixels = PixelDiff.compare(a, b, CHANNEL_TOLERANCE, masksOnImage(recorded, a));
      if (pixels.share() > options.pixelThreshold()) {
        what.add(String.format("%.2f%% of pixels differ (threshold %.2f%%%s)%s", pixels.share() * 100,
            options.pixelThreshold() * 100, options.masks().isEmpty() ? "" : ", " + options.masks().size() + " masked",
            pixels.box() == null ? "" : ", within " + pixels.box() + " of the image"));
      }
    }
    if (what.isEmpty()) {
      return null;
    }
    return writeImages(index, id, String.join("; ", what), before, after, pixels, treeDiff);
  }

  /** The masks (global pixels) in the image's pixels, through the observation's source rectangle. */
  private List<Region> masksOnImage(ObjectNode m, BufferedImage img) {
    if (options.masks().isEmpty()) {
      return List.of();
    }
    JsonNode src = m.path("display").path("source_rect");
    double sx = src.path("x").asDouble(0);
    double sy = src.path("y").asDouble(0);
    double sw = src.path("w").asDouble(img.getWidth());
    double sh = src.path("h").asDouble(img.getHeight());
    double kx = img.getWidth() / sw;
    double ky = img.getHeight() / sh;
    List<Region> out = new ArrayList<>();
    for (Region r : options.masks()) {
      // Rounded outwards: a mask covers every image pixel it touches.
      int x0 = (int) Math.floor((r.x() - sx) * kx);
      int y0 = (int) Math.floor((r.y() - sy) * ky);
      int x1 = (int) Math.ceil((r.x() + r.w() - sx) * kx);
      int y1 = (int) Math.ceil((r.y() + r.h() - sy) * ky);
      if (x1 > x0 && y1 > y0) {
        out.add(new Region(x0, y0, x1 - x0, y1 - y0));
      }
    }
    return out;
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

  /** png or jpg, by the bytes (a frame keeps the codec it was captured with). */
  private static String extension(byte[] bytes) {
    return bytes.length > 2 && (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xd8 ? "jpg" : "png";
  }

  private Divergence writeImages(int index, String id, String what, byte[] before, byte[] after,
      PixelDiff.Result pixels, String treeDiff) {
    Path a = null;
    Path b = null;
    Path d = null;
    if (before == null && after == null) {
      return new Divergence(index, id, what, null, null, null, treeDiff);
    }
    try {
      Files.createDirectories(options.reportDir());
      String stem = "divergence-" + index + "-" + nthAt(index);
      if (before != null) {
        a = options.reportDir().resolve(stem + "-recorded." + extension(before));
        Files.write(a, before);
      }
      if (after != null) {
        b = options.reportDir().resolve(stem + "-replayed." + extension(after));
        Files.write(b, after);
      }
      BufferedImage picture = pixels == null ? null : pixels.picture();
      if (picture != null) {
        d = options.reportDir().resolve(stem + "-diff.png");
        ImageIO.write(picture, "png", d.toFile());
      }
    } catch (IOException e) {
      throw new RecordingException("cannot write the divergence images to " + options.reportDir() + ": "
          + e.getMessage(), e);
    }
    return new Divergence(index, id, what, a, b, d, treeDiff);
  }

  /** 1 for the first divergence at this entry, 2 for its second reply, …: file names never collide. */
  private int nthAt(int index) {
    return 1 + (int) divergences.stream().filter(x -> x.index() == index).count();
  }
}
