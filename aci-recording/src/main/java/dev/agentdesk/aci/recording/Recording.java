package dev.agentdesk.aci.recording;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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

  private Recording(Path dir, List<Entry> entries, int tornLines, int segments) {
    this.dir = dir;
    this.entries = List.copyOf(entries);
    this.tornLines = tornLines;
    this.segments = segments;
  }

  public static Recording open(Path dir) {
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> RecordingFormat.SEGMENT.matcher(p.getFileName().toString()).matches()).sorted()
          .toList();
    } catch (NoSuchFileException e) {
      throw new RecordingException("no recording folder " + dir);
    } catch (IOException e) {
      throw new RecordingException("cannot list " + dir + ": " + e.getMessage(), e);
    }
    if (files.isEmpty()) {
      throw new RecordingException(dir + " holds no recording (no segment-NNNNNN.jsonl)");
    }
    List<Entry> entries = new ArrayList<>();
    int torn = 0;
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
          throw new RecordingException(f.getFileName() + " line " + (i + 1) + " is not JSON: " + e.getMessage(), e);
        }
        if (n.has("recording")) {
          if (!RecordingFormat.MAGIC.equals(n.path("recording").asText()) || n.path("v").asInt() != RecordingFormat.VERSION) {
            throw new RecordingException(f.getFileName() + " is not an agentdesk-aci v1 recording segment");
          }
          continue;
        }
        entries.add(entry(n, f, i + 1));
      }
    }
    return new Recording(dir, entries, torn, files.size());
  }

  private static Entry entry(JsonNode n, Path f, int line) {
    if (!n.path("t").isNumber() || !n.path("conn").isInt()) {
      throw new RecordingException(f.getFileName() + " line " + line + " has no t or conn");
    }
    if (n.has("event")) {
      return new Entry(n.get("t").asDouble(), n.get("conn").asInt(), null, false, null, null, n.get("event").asText());
    }
    Direction d = Direction.of(n.path("dir").asText());
    ObjectNode msg = n.get("msg") instanceof ObjectNode o ? o : null;
    String raw = n.path("raw").isTextual() ? n.get("raw").asText() : null;
    if (msg == null && raw == null && !n.has("raw_b64")) {
      throw new RecordingException(f.getFileName() + " line " + line + " has neither msg nor raw");
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
      throw new RecordingException("frame " + key + " is missing from " + dir + " (" + e.getMessage() + ")", e);
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
