package dev.agentdesk.aci.recording;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import java.util.stream.Stream;

/**
 * A recording folder read back ({@link RecordingFormat}): its entries in order, and its frames. A
 * torn last line (the recorder was killed mid-write) is left out and counted in
 * {@link #tornLines()}; any other line that is not an entry is a {@link RecordingException} naming
 * the segment and line.
 */
public final class Recording {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One recorded message ({@code message} non-null, or {@code raw} for text that was not JSON) or event. */
  public record Entry(double tMs, int conn, Direction direction, boolean binary, ObjectNode message, String raw,
      String event) {
    public boolean isMessage() {
      return event == null;
    }

    /** The message's {@code type}, or null. */
    public String type() {
      return message == null ? null : message.path("type").asText(null);
    }
  }

  private final Path dir;
  private final List<Entry> entries;
  private final int tornLines;
  private final int segments;
  private final int firstSegment;
  private final Instant started;

  private Recording(Path dir, List<Entry> entries, int tornLines, int segments, int firstSegment, Instant started) {
    this.dir = dir;
    this.entries = List.copyOf(entries);
    this.tornLines = tornLines;
    this.segments = segments;
    this.firstSegment = firstSegment;
    this.started = started;
  }

  public static Recording open(Path dir) {
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> RecordingFormat.SEGMENT.matcher(p.getFileName().toString()).matches()).sorted()
          .toList();
    } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
      throw new RecordingException(RecordingException.Kind.NOT_FOUND, dir, "no recording folder " + dir, e);
    } catch (IOException e) {
      throw new RecordingException("cannot list " + dir + ": " + e.getMessage(), e);
    }
    if (files.isEmpty()) {
      throw new RecordingException(RecordingException.Kind.NOT_FOUND, dir,
          dir + " holds no recording (no segment-NNNNNN.jsonl)", null);
    }
    List<Entry> entries = new ArrayList<>();
    int torn = 0;
    Instant started = null;
    for (int s = 0; s < files.size(); s++) {
      Path f = files.get(s);
      String text;
      try {
        text = Files.readString(f, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new RecordingException("cannot read " + f + ": " + e.getMessage(), e);
      }
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i];
        boolean last = i == lines.length - 1;
        if (line.isEmpty()) {
          continue;
        }
        JsonNode n;
        try {
          n = JSON.readTree(line);
        } catch (IOException e) {
          // Only an unterminated final line can be a write cut short; anything else is damage.
          if (last) {
            torn++;
            continue;
          }
          throw new RecordingException(RecordingException.Kind.CORRUPT, f, f + " line " + (i + 1)
              + " is not JSON (" + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()) + "): the file was damaged after it was written;"
              + " restore it from a copy, or move the segment out of the folder to open the rest", e);
        }
        if (n.has("recording")) {
          header(n, f);
          if (started == null) {
            started = headerStart(n);
          }
          continue;
        }
        entries.add(entry(n, f, i + 1));
      }
    }
    int first = Integer.parseInt(RecordingFormat.SEGMENT.matcher(files.get(0).getFileName().toString())
        .replaceAll("$1"));
    return new Recording(dir, entries, torn, files.size(), first, started);
  }

  private static void header(JsonNode n, Path f) {
    if (!RecordingFormat.MAGIC.equals(n.path("recording").asText())) {
      throw new RecordingException(RecordingException.Kind.NOT_A_RECORDING, f, f + " is not an agentdesk-aci"
          + " recording segment (its header says \"" + n.path("recording").asText() + "\"): move it out of the folder", null);
    }
    if (n.path("v").asInt(-1) != RecordingFormat.VERSION) {
      throw new RecordingException(RecordingException.Kind.UNSUPPORTED_VERSION, f, f + " is recording format v"
          + n.path("v").asText("?") + "; this agentdesk reads v" + RecordingFormat.VERSION
          + ": open it with the agentdesk that recorded it, or a newer one", null);
    }
  }

  /** When the recording (not this segment) started: the header's wall time less its offset. */
  private static Instant headerStart(JsonNode n) {
    try {
      Instant at = Instant.parse(n.path("started").asText());
      return at.minusNanos(Math.round(n.path("t").asDouble() * 1e6));
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  private static Entry entry(JsonNode n, Path f, int line) {
    if (!n.path("t").isNumber() || !n.path("conn").isInt()) {
      throw new RecordingException(RecordingException.Kind.CORRUPT, f, f + " line " + line
          + " has no t or conn: it is not a recording entry; restore the file from a copy, or move the segment"
          + " out of the folder to open the rest", null);
    }
    if (n.has("event")) {
      return new Entry(n.get("t").asDouble(), n.get("conn").asInt(), null, false, null, null, n.get("event").asText());
    }
    Direction d;
    try {
      d = Direction.of(n.path("dir").asText());
    } catch (RecordingException e) {
      throw new RecordingException(RecordingException.Kind.CORRUPT, f, f + " line " + line + ": " + e.getMessage()
          + "; restore the file from a copy, or move the segment out of the folder to open the rest", e);
    }
    ObjectNode msg = n.get("msg") instanceof ObjectNode o ? o : null;
    String raw = n.path("raw").isTextual() ? n.get("raw").asText() : null;
    if (msg == null && raw == null && !n.has("raw_b64")) {
      throw new RecordingException(RecordingException.Kind.CORRUPT, f, f + " line " + line
          + " has neither msg nor raw: it is not a recording entry; restore the file from a copy, or move the"
          + " segment out of the folder to open the rest", null);
    }
    return new Entry(n.get("t").asDouble(), n.get("conn").asInt(), d, n.path("binary").asBoolean(), msg, raw, null);
  }

  public List<Entry> entries() {
    return entries;
  }

  public int tornLines() {
    return tornLines;
  }

  public int segments() {
    return segments;
  }

  public Path dir() {
    return dir;
  }

  /**
   * The number of the oldest segment left: above 1 when rotation dropped the start of a recording
   * that outgrew its size bound.
   */
  public int firstSegment() {
    return firstSegment;
  }

  /** When the recording started (wall time), or null when no segment header says. */
  public Instant started() {
    return started;
  }

  /** The bytes of the frame a {@code frame:KEY} reference names. */
  public byte[] frame(String ref) {
    String key = ref.startsWith(RecordingFormat.FRAME_REF) ? ref.substring(RecordingFormat.FRAME_REF.length()) : ref;
    if (key.contains("/") || key.contains("..")) {
      throw new RecordingException("bad frame reference " + ref);
    }
    Path p = dir.resolve(RecordingFormat.FRAMES).resolve(key + "." + (key.endsWith("-jpg") ? "jpg" : "png"));
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new RecordingException(RecordingException.Kind.MISSING_FRAME, p, "frame " + key + " is missing from "
          + dir + " (" + e.getMessage() + ")", e);
    }
  }

  /** A copy of {@code message} with its frame references turned back into base64 image data. */
  public ObjectNode withImages(ObjectNode message) {
    ObjectNode copy = message.deepCopy();
    if (copy.get("image") instanceof ObjectNode img && img.path("ref").asText().startsWith(RecordingFormat.FRAME_REF)) {
      img.put("ref", Base64.getEncoder().encodeToString(frame(img.get("ref").asText())));
    }
    if (copy.get("tiles") != null) {
      for (JsonNode t : copy.get("tiles")) {
        if (t instanceof ObjectNode tile && tile.path("ref").asText().startsWith(RecordingFormat.FRAME_REF)) {
          tile.put("ref", Base64.getEncoder().encodeToString(frame(tile.get("ref").asText())));
        }
      }
    }
    return copy;
  }

}
