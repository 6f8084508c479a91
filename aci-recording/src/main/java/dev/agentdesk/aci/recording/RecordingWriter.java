package dev.agentdesk.aci.recording;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.wire.BinaryFrame;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.WireCodec;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * Appends an ACI session to a recording folder ({@link RecordingFormat}): every message both ways
 * with its time, images stored once, segments rotated at {@link Limits#segmentBytes()} and the
 * oldest dropped (with the images only they named) past {@link Limits#totalBytes()}. Each line goes
 * to the file in one unbuffered write, so a killed recorder leaves every line it finished. Tokens
 * in a {@code hello} are replaced by {@code <redacted>}. Thread-safe: both directions of every
 * connection write through one lock.
 */
public final class RecordingWriter implements AutoCloseable {
  /** Bounds of a recording folder. */
  public record Limits(long segmentBytes, long totalBytes) {
    public Limits {
      if (segmentBytes < 4096 || totalBytes < segmentBytes) {
        throw new IllegalArgumentException("limits need segmentBytes >= 4096 and totalBytes >= segmentBytes, got "
            + segmentBytes + " and " + totalBytes);
      }
    }

    /** 32 MiB segments, 1 GiB in all. */
    public static Limits defaults() {
      return new Limits(32L << 20, 1L << 30);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final Path frames;
  private final Limits limits;
  private final long startNanos = System.nanoTime();
  private final Deque<Segment> segments = new ArrayDeque<>();
  /** Frame key to the newest segment that names it, and its size: what dropping a segment frees. */
  private final Map<String, Integer> frameSegment = new HashMap<>();
  private final Map<String, Long> frameBytes = new HashMap<>();
  private long total;
  private int nextConn = 1;
  private OutputStream out;
  private boolean closed;

  /** {@code bytes[0]}: its lines; {@code bytes[1]}: the frames first named in it (both count toward rotation). */
  private record Segment(int number, Path path, long[] bytes) {}

  private RecordingWriter(Path dir, Limits limits) {
    this.dir = dir;
    this.frames = dir.resolve(RecordingFormat.FRAMES);
    this.limits = limits;
  }

  /** Starts a new recording in {@code dir} (created if absent; it must hold no recording yet). */
  public static RecordingWriter open(Path dir, Limits limits) {
    try {
      Files.createDirectories(dir.resolve(RecordingFormat.FRAMES));
      try (var list = Files.list(dir)) {
        if (list.anyMatch(p -> RecordingFormat.SEGMENT.matcher(p.getFileName().toString()).matches())) {
          throw new RecordingException(dir + " already holds a recording: record into a new folder");
        }
      }
    } catch (IOException e) {
      throw new RecordingException("cannot create the recording folder " + dir + ": " + e.getMessage(), e);
    }
    RecordingWriter w = new RecordingWriter(dir, limits);
    w.rotate();
    return w;
  }

  /** A new connection's number; its {@code open} event is recorded. */
  public synchronized int connectionOpened() {
    int conn = nextConn++;
    ObjectNode e = entry(conn);
    e.put("event", "open");
    append(e);
    return conn;
  }

  public synchronized void connectionClosed(int conn) {
    ObjectNode e = entry(conn);
    e.put("event", "close");
    append(e);
  }

  /** A text message as it travelled. */
  public synchronized void text(int conn, Direction dir, String text) {
    ObjectNode e = entry(conn);
    e.put("dir", dir.wire());
    JsonNode msg;
    try {
      msg = WireCodec.parse(text);
    } catch (WireException ex) {
      e.put("raw", text);
      append(e);
      return;
    }
    if (!msg.isObject()) {
      e.put("raw", text);
      append(e);
      return;
    }
    e.set("msg", store((ObjectNode) msg));
    append(e);
  }

  /** A binary message (an ACI binary frame), recorded as the message it stands for. */
  public synchronized void binary(int conn, Direction dir, byte[] frame) {
    ObjectNode e = entry(conn);
    e.put("dir", dir.wire());
    e.put("binary", true);
    try {
      BinaryFrame f = BinaryFrames.decode(frame);
      JsonNode msg = f instanceof BinaryFrame.Media m ? WireCodec.toJson(BinaryFrames.toObservation(m))
          : WireCodec.toJson(BinaryFrames.toExecOutput((BinaryFrame.ExecOutput) f));
      e.set("msg", store((ObjectNode) msg));
    } catch (WireException ex) {
      e.put("raw_b64", Base64.getEncoder().encodeToString(frame));
    }
    append(e);
  }

  /** Bytes in the folder now (segments and frames). */
  public synchronized long bytes() {
    return total;
  }

  public Path dir() {
    return dir;
  }

  private ObjectNode entry(int conn) {
    ObjectNode e = JSON.createObjectNode();
    e.put("t", Math.round((System.nanoTime() - startNanos) / 1e4) / 100.0);
    e.put("conn", conn);
    return e;
  }

  /** Replaces image data by frame references (writing each new frame once) and redacts tokens. */
  private ObjectNode store(ObjectNode msg) {
    String type = msg.path("type").asText();
    if ("hello".equals(type) && msg.has("token")) {
      msg.put("token", RecordingFormat.REDACTED);
    }
    if (!"observation".equals(type)) {
      return msg;
    }
    JsonNode image = msg.get("image");
    if (image instanceof ObjectNode img && img.path("ref").isTextual()) {
      String fmt = "jpeg".equals(img.path("format").asText()) ? "jpg" : "png";
      String key = msg.path("frame_hash").isTextual()
          ? msg.get("frame_hash").asText() + "-" + img.path("w").asLong() + "x" + img.path("h").asLong() + "-" + fmt
          : null;
      img.put("ref", RecordingFormat.FRAME_REF + frame(key, img.get("ref").asText(), fmt));
    }
    if (msg.get("tiles") instanceof ArrayNode tiles) {
      for (JsonNode t : tiles) {
        if (t instanceof ObjectNode tile && tile.path("ref").isTextual()) {
          String ref = tile.get("ref").asText();
          tile.put("ref", RecordingFormat.FRAME_REF + frame(null, ref, ref.startsWith("/9j/") ? "jpg" : "png"));
        }
      }
    }
    return msg;
  }

  /** Stores base64 {@code data} as a frame once; returns its key (given, or the content digest). */
  private String frame(String key, String data, String fmt) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(data);
    } catch (IllegalArgumentException e) {
      bytes = data.getBytes(StandardCharsets.UTF_8);
    }
    if (key == null) {
      key = digest(bytes) + "-" + fmt;
    }
    int current = segments.getLast().number();
    Integer seen = frameSegment.put(key, current);
    if (seen == null) {
      Path target = frames.resolve(key + "." + fmt);
      Path tmp = frames.resolve(key + "." + fmt + ".tmp");
      try {
        Files.write(tmp, bytes);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new RecordingException("cannot write frame " + target + ": " + e.getMessage(), e);
      }
      frameBytes.put(key, (long) bytes.length);
      total += bytes.length;
      segments.getLast().bytes()[1] += bytes.length;
    }
    return key;
  }

  private static String digest(byte[] bytes) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(bytes);
      return HexFormat.of().formatHex(d, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private void append(ObjectNode entry) {
    if (closed) {
      return;
    }
    byte[] line;
    try {
      line = (JSON.writeValueAsString(entry) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new RecordingException("cannot encode a recording line: " + e.getMessage(), e);
    }
    write(line);
    long[] current = segments.getLast().bytes();
    if (current[0] + current[1] >= limits.segmentBytes()) {
      rotate();
    }
    while (total > limits.totalBytes() && segments.size() > 1) {
      dropOldest();
    }
  }

  private void write(byte[] line) {
    try {
      out.write(line);
    } catch (IOException e) {
      throw new RecordingException("cannot append to " + segments.getLast().path() + ": " + e.getMessage(), e);
    }
    segments.getLast().bytes()[0] += line.length;
    total += line.length;
  }

  private void rotate() {
    int n = segments.isEmpty() ? 1 : segments.getLast().number() + 1;
    Path path = dir.resolve(RecordingFormat.segmentName(n));
    try {
      if (out != null) {
        out.close();
      }
      // No buffer between us and the file: one write() per line is what survives a kill.
      out = new FileOutputStream(path.toFile(), true);
    } catch (IOException e) {
      throw new RecordingException("cannot open " + path + ": " + e.getMessage(), e);
    }
    segments.addLast(new Segment(n, path, new long[2]));
    ObjectNode header = JSON.createObjectNode();
    header.put("recording", RecordingFormat.MAGIC);
    header.put("v", RecordingFormat.VERSION);
    header.put("segment", n);
    header.put("started", Instant.now().toString());
    header.put("t", Math.round((System.nanoTime() - startNanos) / 1e4) / 100.0);
    try {
      write((JSON.writeValueAsString(header) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new RecordingException("cannot encode a segment header", e);
    }
  }

  private void dropOldest() {
    Segment old = segments.removeFirst();
    try {
      Files.deleteIfExists(old.path());
      total -= old.bytes()[0];
      var it = frameSegment.entrySet().iterator();
      while (it.hasNext()) {
        var f = it.next();
        if (f.getValue() <= old.number()) {
          String key = f.getKey();
          String fmt = key.endsWith("-jpg") ? "jpg" : "png";
          Files.deleteIfExists(frames.resolve(key + "." + fmt));
          total -= frameBytes.remove(key);
          it.remove();
        }
      }
    } catch (IOException e) {
      throw new RecordingException("cannot drop " + old.path() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } catch (IOException e) {
      throw new RecordingException("cannot close " + segments.getLast().path() + ": " + e.getMessage(), e);
    }
  }
}
