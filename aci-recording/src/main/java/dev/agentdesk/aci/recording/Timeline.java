package dev.agentdesk.aci.recording;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.recording.Playback.Action;
import dev.agentdesk.aci.recording.Playback.Observation;
import dev.agentdesk.aci.recording.Playback.ObservationKind;
import dev.agentdesk.aci.recording.Playback.Point;
import dev.agentdesk.aci.recording.Playback.Rect;
import dev.agentdesk.aci.recording.Playback.Size;
import dev.agentdesk.aci.recording.Playback.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass over a recording's entries: each becomes a {@link Step}; image-bearing observations
 * become {@link FrameSource}s (a delta knows its stream's previous frame and keyframe); every step
 * learns which frame and which tree_text were the latest by then.
 */
final class Timeline {
  /** Where a frame's pixels come from. */
  sealed interface FrameSource permits Still, Delta {
    int step();
  }

  /** A recorded image as it is: a screenshot or a keyframe. */
  record Still(int step, String ref, String mimeType, long w, long h) implements FrameSource {}

  /** One changed tile of a delta frame. */
  record TileRef(long x, long y, long w, long h, String ref) {}

  /** Tiles painted onto {@code previous} (the stream's frame before), whose chain starts at {@code keyframe}. */
  record Delta(int step, int previous, int keyframe, List<TileRef> tiles, long w, long h) implements FrameSource {}

  private final List<Step> steps = new ArrayList<>();
  private final Map<Integer, FrameSource> sources = new HashMap<>();
  /** The latest frame of each stream ({@code conn/stream}): what its next delta paints onto. */
  private final Map<String, FrameSource> streamHead = new HashMap<>();
  private final Map<String, Integer> frameByHash = new HashMap<>();
  /** Element ref to its box, from the latest structured observation with elements. */
  private final Map<String, double[]> elements = new HashMap<>();
  private final Map<String, String> queries = new HashMap<>();
  private final Set<Integer> open = new LinkedHashSet<>();
  private final Set<Integer> connections = new LinkedHashSet<>();
  private Size screen;
  private Size firstImage;
  private int frame = -1;
  private int tree = -1;
  private int messages;
  private int actions;
  private int observations;

  private Timeline() {}

  static Timeline build(Recording rec) {
    Timeline t = new Timeline();
    List<Recording.Entry> entries = rec.entries();
    for (int i = 0; i < entries.size(); i++) {
      t.add(i, entries.get(i));
    }
    return t;
  }

  List<Step> steps() {
    return List.copyOf(steps);
  }

  Map<Integer, FrameSource> sources() {
    return Map.copyOf(sources);
  }

  Playback.Summary summary(Recording rec, long bytes) {
    List<Integer> stillOpen = List.copyOf(open);
    List<String> why = new ArrayList<>();
    if (rec.tornLines() > 0) {
      why.add("the recorder stopped in the middle of writing its last line");
    }
    if (!stillOpen.isEmpty()) {
      why.add((stillOpen.size() == 1 ? "connection " + stillOpen.get(0) + " was" : "connections " + stillOpen + " were")
          + " still open at the last entry (the recorder was killed, or is still recording)");
    }
    Playback.Ending ending = new Playback.Ending(why.isEmpty(), why.isEmpty() ? null : String.join("; ", why),
        rec.tornLines(), stillOpen);
    double duration = steps.isEmpty() ? 0 : steps.get(steps.size() - 1).tMs();
    return new Playback.Summary(rec.started(), duration, steps.size(), messages, actions, observations, sources.size(),
        connections.size(), screen != null ? screen : firstImage, ending, rec.segments(), rec.firstSegment(), bytes);
  }

  private void add(int i, Recording.Entry e) {
    connections.add(e.conn());
    if (!e.isMessage()) {
      if ("open".equals(e.event())) {
        open.add(e.conn());
      } else if ("close".equals(e.event())) {
        open.remove(e.conn());
      }
      steps.add(new Step(i, e.tMs(), e.conn(), null, e.event(), null, null, null, null, null, null, frame, tree));
      return;
    }
    messages++;
    ObjectNode m = e.message();
    if (m == null) {
      steps.add(new Step(i, e.tMs(), e.conn(), e.direction(), null, "raw", null, null, null, null, null, frame, tree));
      return;
    }
    String type = e.type();
    String callId = text(m, "call_id");
    Action action = null;
    Observation obs = null;
    Boolean ok = m.path("ok").isBoolean() ? m.get("ok").asBoolean() : null;
    String error = text(m, "error");
    if (e.direction() == Direction.CLIENT_TO_RUNTIME && "action".equals(type) && m.get("action") instanceof ObjectNode a) {
      actions++;
      action = action(a);
    } else if (e.direction() == Direction.CLIENT_TO_RUNTIME && "query".equals(type) && callId != null) {
      queries.put(e.conn() + "/" + callId, text(m, "q"));
    } else if ("result".equals(type) && callId != null
        && "screen_size".equals(queries.remove(e.conn() + "/" + callId)) && screen == null
        && m.path("value").path("w").isNumber()) {
      screen = new Size(m.path("value").path("w").asLong(), m.path("value").path("h").asLong());
    } else if (e.direction() == Direction.RUNTIME_TO_CLIENT && "observation".equals(type)) {
      observations++;
      obs = observation(i, e.conn(), m);
    }
    if (callId == null && "observation".equals(type)) {
      callId = text(m, "cause");
    }
    steps.add(new Step(i, e.tMs(), e.conn(), e.direction(), null, type, callId, action, obs, ok, error, frame, tree));
  }

  private Observation observation(int i, int conn, ObjectNode m) {
    String stream = text(m, "stream");
    Long seq = m.path("seq").isIntegralNumber() ? m.get("seq").asLong() : null;
    String hash = text(m, "frame_hash");
    JsonNode display = m.get("display");
    if (display != null && screen == null && display.path("w").isNumber()) {
      screen = new Size(display.path("w").asLong(), display.path("h").asLong());
    }
    if (m.get("elements") instanceof com.fasterxml.jackson.databind.node.ArrayNode list) {
      elements.clear();
      for (JsonNode el : list) {
        JsonNode b = el.path("bbox");
        if (el.path("ref").isTextual() && b.size() >= 4) {
          elements.put(el.get("ref").asText(), new double[] {b.get(0).asDouble(), b.get(1).asDouble(),
              b.get(2).asDouble(), b.get(3).asDouble()});
        }
      }
    }
    if (m.path("tree_text").isTextual()) {
      tree = i;
    }
    Point pointer = m.path("pointer").size() >= 2
        ? new Point(m.get("pointer").get(0).asDouble(), m.get("pointer").get(1).asDouble()) : null;
    ObservationKind kind;
    Long w = null;
    Long h = null;
    String format = null;
    Rect source = null;
    String problem = null;
    int tiles = 0;
    JsonNode image = m.get("image");
    if (m.path("not_modified").asBoolean()) {
      kind = ObservationKind.NOT_MODIFIED;
      Integer same = hash == null ? null : frameByHash.get(hash);
      if (same != null) {
        frame = same;
      } else {
        problem = "not_modified names frame " + hash + ", which is not in the recording";
      }
    } else if (image != null && image.path("ref").isTextual()) {
      kind = stream == null ? ObservationKind.SCREENSHOT : ObservationKind.KEYFRAME;
      w = image.path("w").asLong();
      h = image.path("h").asLong();
      format = "jpeg".equals(image.path("format").asText()) ? "jpeg" : "png";
      source = display != null ? rect(display.path("source_rect")) : fullScreen(image);
      if (firstImage == null && !"window".equals(image.path("scope").asText())) {
        firstImage = new Size(w, h);
      }
      Timeline.Still still = new Still(i, image.get("ref").asText(), "image/" + format, w, h);
      sources.put(i, still);
      if (stream != null) {
        streamHead.put(conn + "/" + stream, still);
      }
      if (hash != null) {
        frameByHash.put(hash, i);
      }
      frame = i;
    } else if (m.get("tiles") instanceof com.fasterxml.jackson.databind.node.ArrayNode list && stream != null) {
      kind = ObservationKind.DELTA;
      tiles = list.size();
      FrameSource prev = streamHead.get(conn + "/" + stream);
      if (prev == null) {
        problem = "delta frame before any keyframe of stream " + stream
            + " (the start of the recording was dropped, or the keyframe was never recorded)";
      } else {
        List<TileRef> refs = new ArrayList<>();
        for (JsonNode t : list) {
          refs.add(new TileRef(t.path("x").asLong(), t.path("y").asLong(), t.path("w").asLong(), t.path("h").asLong(),
              t.path("ref").asText()));
        }
        long pw = prev instanceof Still s ? s.w() : ((Delta) prev).w();
        long ph = prev instanceof Still s ? s.h() : ((Delta) prev).h();
        int key = prev instanceof Still s ? s.step() : ((Delta) prev).keyframe();
        Delta d = new Delta(i, prev.step(), key, refs, pw, ph);
        sources.put(i, d);
        streamHead.put(conn + "/" + stream, d);
        w = pw;
        h = ph;
        format = "png";
        Observation keyObs = steps.get(key).observation();
        source = keyObs == null ? null : keyObs.source();
        frame = i;
      }
    } else {
      kind = ObservationKind.TREE;
    }
    return new Observation(text(m, "obs_id"), kind, text(m, "cause"), stream, seq, tiles, hash, text(m, "tree"),
        text(m, "tree_text"), w, h, format, source, pointer, problem);
  }

  /** A full-screen image covers the screen when its size is known; else the image is taken as 1:1. */
  private Rect fullScreen(JsonNode image) {
    if ("window".equals(image.path("scope").asText())) {
      return null;
    }
    Size s = screen;
    return s == null ? null : new Rect(0, 0, s.w(), s.h());
  }

  private Action action(ObjectNode a) {
    String verb = a.path("verb").asText("?");
    JsonNode target = a.get("target");
    String kind = target == null ? null : text(target, "kind");
    String ref = target == null ? null : text(target, "ref");
    Point at = point(target);
    Point to = point(a.get("to"));
    String text = text(a, "text");
    String keys = text(a, "keys");
    Double dx = a.path("dx").isNumber() ? a.get("dx").asDouble() : null;
    Double dy = a.path("dy").isNumber() ? a.get("dy").asDouble() : null;
    Long ms = a.path("ms").isIntegralNumber() ? a.get("ms").asLong() : null;
    StringBuilder label = new StringBuilder(verb);
    if (ref != null) {
      label.append(' ').append(ref);
    }
    if (at != null) {
      label.append(" (").append(Math.round(at.x())).append(", ").append(Math.round(at.y())).append(')');
    }
    if (to != null) {
      label.append(" → (").append(Math.round(to.x())).append(", ").append(Math.round(to.y())).append(')');
    }
    if (text != null) {
      label.append(" \"").append(text.length() > 60 ? text.substring(0, 57) + "…" : text).append('"');
    }
    if (keys != null) {
      label.append(' ').append(keys);
    }
    if (dx != null || dy != null) {
      label.append(" dx=").append(fmt(dx)).append(" dy=").append(fmt(dy));
    }
    if (ms != null) {
      label.append(' ').append(ms).append(" ms");
    }
    return new Action(verb, label.toString(), kind, at, to, ref, text, keys, dx, dy, ms, a.has("observe"));
  }

  private Point point(JsonNode target) {
    if (target == null) {
      return null;
    }
    String kind = target.path("kind").asText();
    double x = target.path("x").asDouble();
    double y = target.path("y").asDouble();
    switch (kind) {
      case "point_px":
        return new Point(x, y);
      case "point_norm":
        return screen == null ? null : new Point(x * screen.w(), y * screen.h());
      case "element_ref":
        double[] b = elements.get(target.path("ref").asText());
        return b == null ? null : new Point(b[0] + b[2] / 2, b[1] + b[3] / 2);
      default:
        return null;
    }
  }

  private static Rect rect(JsonNode r) {
    if (r == null || !r.path("w").isNumber()) {
      return null;
    }
    return new Rect(r.path("x").asDouble(), r.path("y").asDouble(), r.path("w").asDouble(), r.path("h").asDouble());
  }

  private static String fmt(Double d) {
    return d == null ? "0" : d == Math.rint(d) ? String.valueOf(d.longValue()) : String.valueOf(d);
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v != null && v.isTextual() ? v.asText() : null;
  }
}
