package dev.agentdesk.app.serve.recordings;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.recording.Playback;
import dev.agentdesk.aci.recording.RecordingException;
import dev.agentdesk.app.serve.ApiArea;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Recordings: the ACI recordings under one folder ({@code serve --recordings}, default {@code
 * $XDG_DATA_HOME/agentdesk/recordings}), each sub-folder one recording named by its folder. Lists
 * them, serves one's timeline and the screen at any step, composed by aci-recording's
 * {@link Playback}. Opened recordings are kept (a few, newest use first) until their segment files
 * change, so stepping through one reads its lines once.
 */
public final class RecordingsArea implements ApiArea {
  /** A recording id is one folder name: no separators, no dot-dot, nothing hidden. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  static final int OPEN_RECORDINGS = 6;
  private static final Pattern SEGMENT = Pattern.compile("segment-\\d{6}\\.jsonl");
  /** The timeline leaves absent fields out: an hour of screencast is thousands of steps. */
  private static final ObjectMapper COMPACT = Json.MAPPER.copy().setSerializationInclusion(JsonInclude.Include.NON_NULL);

  private final Path root;
  private final Map<String, Opened> open = new LinkedHashMap<>(8, 0.75f, true);
  private final Map<String, Listed> listed = new LinkedHashMap<>();

  /** An opened recording and the state of its segment files when it was read. */
  private record Opened(String fingerprint, Playback playback) {}

  /** A list row and the fingerprint it was made from. */
  private record Listed(String fingerprint, ObjectNode row) {}

  public RecordingsArea(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** Whether {@code id} can name a recording: one folder name, nothing hidden, no {@code ..}. */
  public static boolean isValidId(String id) {
    return id != null && ID.matcher(id).matches() && !id.contains("..");
  }

  public Path root() {
    return root;
  }

  @Override
  public void routes(RoutesConfig r) {
    r.get("/api/recordings", ctx -> ctx.json(list()));
    r.get("/api/recordings/{id}", ctx -> ctx.contentType("application/json").result(timeline(ctx.pathParam("id"))));
    r.get("/api/recordings/{id}/frame", this::frame);
  }

  /** {@code GET /api/recordings}: the folder and one row per recording, newest first; a damaged one says why. */
  public Map<String, Object> list() {
    List<ObjectNode> rows = new ArrayList<>();
    List<Path> dirs;
    try (Stream<Path> children = Files.list(root)) {
      dirs = children.filter(Files::isDirectory).filter(p -> isValidId(p.getFileName().toString()))
          .filter(RecordingsArea::holdsSegments).toList();
    } catch (NoSuchFileException e) {
      dirs = List.of();
    } catch (IOException e) {
      throw new ServeException(ServeException.Reason.INTERNAL, "cannot list " + root + ": " + e.getMessage(), e);
    }
    synchronized (listed) {
      listed.keySet().retainAll(dirs.stream().map(p -> p.getFileName().toString()).toList());
      for (Path d : dirs) {
        rows.add(row(d.getFileName().toString(), d));
      }
    }
    rows.sort(Comparator.comparing((ObjectNode n) -> n.path("started").asText("")).reversed()
        .thenComparing(n -> n.path("id").asText()));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("folder", root.toString());
    out.put("exists", Files.isDirectory(root));
    out.put("recordings", rows);
    return out;
  }

  private ObjectNode row(String id, Path dir) {
    String fp = fingerprint(dir);
    Listed l = listed.get(id);
    if (l != null && l.fingerprint().equals(fp)) {
      return l.row();
    }
    ObjectNode row = Json.MAPPER.createObjectNode();
    row.put("id", id);
    row.put("path", dir.toString());
    try {
      row.setAll((ObjectNode) Json.MAPPER.valueToTree(playback(id).summary()));
    } catch (RecordingException e) {
      ObjectNode err = row.putObject("error");
      err.put("code", e.kind().code());
      err.put("message", e.getMessage());
      if (e.file() != null) {
        err.put("file", e.file().toString());
      }
    }
    listed.put(id, new Listed(fp, row));
    return row;
  }

  /** {@code GET /api/recordings/{id}}: the summary and every step. */
  byte[] timeline(String id) {
    Playback p = playbackOrFail(id);
    ObjectNode out = COMPACT.createObjectNode();
    out.put("id", id);
    out.put("path", p.recording().dir().toString());
    out.setAll((ObjectNode) COMPACT.valueToTree(p.summary()));
    out.set("steps", COMPACT.valueToTree(p.steps()));
    try {
      return COMPACT.writeValueAsBytes(out);
    } catch (IOException e) {
      throw new ServeException(ServeException.Reason.INTERNAL, "could not write the timeline", e);
    }
  }

  /**
   * {@code GET /api/recordings/{id}/frame?step=K}: the screen at step K as an image; {@code
   * X-Frame-Step} names the step whose observation it is, {@code Server-Timing} what it cost.
   */
  private void frame(Context ctx) {
    String raw = ctx.queryParam("step");
    int step;
    try {
      step = Integer.parseInt(raw == null ? "" : raw.trim());
    } catch (NumberFormatException e) {
      throw ServeException.badRequest("step must be a step number (0 or more), got '" + raw + "'");
    }
    Playback.Frame f = frame(ctx.pathParam("id"), step);
    ctx.header("X-Frame-Step", String.valueOf(f.step()))
        .header("X-Frame-Composed", String.valueOf(f.composed()))
        .header("Server-Timing", String.format(Locale.ROOT, "compose;dur=%.2f", f.nanos() / 1e6))
        .header("Cache-Control", "private, max-age=300")
        .contentType(f.mimeType()).result(f.bytes());
  }

  /** The screen at {@code step} of recording {@code id}. */
  public Playback.Frame frame(String id, int step) {
    Playback p = playbackOrFail(id);
    try {
      return p.frame(step);
    } catch (IllegalArgumentException | java.util.NoSuchElementException e) {
      throw ServeException.notFound(e.getMessage());
    } catch (RecordingException e) {
      throw unprocessable(id, e);
    }
  }

  private Playback playbackOrFail(String id) {
    try {
      return playback(id);
    } catch (RecordingException e) {
      if (e.kind() == RecordingException.Kind.NOT_FOUND) {
        throw ServeException.notFound("no recording " + id + " in " + root);
      }
      throw unprocessable(id, e);
    }
  }

  private Playback playback(String id) {
    Path dir = dir(id);
    String fp = fingerprint(dir);
    synchronized (open) {
      Opened o = open.get(id);
      if (o != null && o.fingerprint().equals(fp)) {
        return o.playback();
      }
    }
    Playback p = Playback.open(dir); // outside the lock: a big recording must not hold up the others
    synchronized (open) {
      open.put(id, new Opened(fp, p));
      while (open.size() > OPEN_RECORDINGS) {
        open.remove(open.keySet().iterator().next());
      }
    }
    return p;
  }

  private Path dir(String id) {
    if (!isValidId(id)) {
      throw ServeException.badRequest("a recording id is a folder name of letters, digits, '.', '_' and '-'"
          + " (no '/' or '..'), got '" + id + "'");
    }
    Path dir = root.resolve(id).normalize();
    if (!dir.getParent().equals(root)) {
      throw ServeException.badRequest("recording id '" + id + "' leaves the recordings folder");
    }
    if (!Files.isDirectory(dir)) {
      throw ServeException.notFound("no recording " + id + " in " + root);
    }
    return dir;
  }

  private static ServeException unprocessable(String id, RecordingException e) {
    return new ServeException(ServeException.Reason.UNPROCESSABLE, "recording " + id + ": " + e.getMessage(),
        e.kind().code(), e.file() == null ? List.of() : List.of(e.file().toString()), e);
  }

  private static boolean holdsSegments(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> SEGMENT.matcher(f.getFileName().toString()).matches());
    } catch (IOException e) {
      return false;
    }
  }

  /** Segment names, sizes and times: a recording still being written changes it with every line. */
  private static String fingerprint(Path dir) {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(x -> SEGMENT.matcher(x.getFileName().toString()).matches()).sorted().toList()) {
        sb.append(f.getFileName()).append(':').append(Files.size(f)).append(':')
            .append(Files.getLastModifiedTime(f).toMillis()).append(';');
      }
    } catch (IOException e) {
      sb.append("unreadable:").append(e.getMessage());
    }
    return sb.toString();
  }
}
