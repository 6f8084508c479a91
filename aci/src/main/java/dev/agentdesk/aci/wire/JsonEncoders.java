package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Records to JSON trees. An absent (null) optional component is omitted, never written as null;
 * the only nulls on the wire are {@code exit_code} (required, nullable) — and {@code signal}, which
 * is written only when set.
 */
final class JsonEncoders {
  private JsonEncoders() {}

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** A small fluent writer that skips nulls. */
  private static final class Out {
    final ObjectNode node = F.objectNode();

    Out str(String field, String v) {
      if (v != null) {
        node.put(field, v);
      }
      return this;
    }

    Out num(String field, Double v) {
      if (v != null) {
        node.set(field, number(v));
      }
      return this;
    }

    Out integer(String field, Long v) {
      if (v != null) {
        node.put(field, v);
      }
      return this;
    }

    Out integer(String field, Integer v) {
      if (v != null) {
        node.put(field, v);
      }
      return this;
    }

    Out bool(String field, Boolean v) {
      if (v != null) {
        node.put(field, v);
      }
      return this;
    }

    Out en(String field, WireEnum v) {
      if (v != null) {
        node.put(field, v.wire());
      }
      return this;
    }

    Out json(String field, JsonNode v) {
      if (v != null) {
        node.set(field, v);
      }
      return this;
    }

    <T> Out list(String field, List<T> v, Function<T, JsonNode> item) {
      if (v != null) {
        ArrayNode a = node.putArray(field);
        v.forEach(x -> a.add(item.apply(x)));
      }
      return this;
    }

    Out strings(String field, List<String> v) {
      return list(field, v, F::textNode);
    }

    Out enums(String field, List<? extends WireEnum> v) {
      if (v != null) {
        ArrayNode a = node.putArray(field);
        v.forEach(x -> a.add(x.wire()));
      }
      return this;
    }
  }

  /**
   * A JSON number for a double: integral values are written as integers ({@code 644}, not
   * {@code 644.0}) — the natural spelling of pixel coordinates — except -0.0, whose sign only the
   * decimal form keeps. Both spellings decode to the same double.
   */
  static JsonNode number(double v) {
    boolean negativeZero = v == 0 && Double.doubleToRawLongBits(v) != 0;
    if (v == Math.rint(v) && Math.abs(v) < 1e15 && !negativeZero) {
      return F.numberNode((long) v);
    }
    return F.numberNode(v);
  }

  static ObjectNode message(AciMessage m) {
    if (m instanceof Hello h) {
      Out o = new Out().str("type", Hello.TYPE);
      o.node.put("v", 0);
      ObjectNode client = o.node.putObject("client");
      client.put("name", h.client().name()).put("version", h.client().version());
      if (h.accept() != null) {
        o.json("accept", new Out().enums("observation_types", h.accept().observationTypes())
            .bool("binary_frames", h.accept().binaryFrames()).node);
      }
      return o.str("token", h.token()).node;
    } else if (m instanceof Welcome w) {
      Out o = new Out().str("type", Welcome.TYPE);
      o.node.put("v", 0);
      o.json("server", new Out().str("name", w.server().name()).str("version", w.server().version())
          .en("platform", w.server().platform()).node);
      return o.json("capabilities", capabilities(w.capabilities())).node;
    } else if (m instanceof Ping p) {
      return new Out().str("type", Ping.TYPE).num("t", p.t()).node;
    } else if (m instanceof Pong p) {
      return new Out().str("type", Pong.TYPE).num("t", p.t()).node;
    } else if (m instanceof Query q) {
      return new Out().str("type", Query.TYPE).str("call_id", q.callId()).en("q", q.q()).node;
    } else if (m instanceof Result r) {
      return new Out().str("type", Result.TYPE).str("call_id", r.callId()).bool("ok", r.ok())
          .json("value", r.value()).str("error", r.error()).node;
    } else if (m instanceof ActionMsg a) {
      return new Out().str("type", ActionMsg.TYPE).str("call_id", a.callId()).json("action", action(a.action()))
          .node;
    } else if (m instanceof Ack a) {
      return new Out().str("type", Ack.TYPE).str("call_id", a.callId()).bool("ok", a.ok()).str("error", a.error())
          .node;
    } else if (m instanceof ObservationMsg o) {
      return observation(o);
    } else if (m instanceof ExecOutputMsg e) {
      return new Out().str("type", ExecOutputMsg.TYPE).str("cause", e.cause()).integer("seq", e.seq())
          .en("channel", e.channel()).str("data_b64", e.dataB64()).node;
    } else if (m instanceof ExecExitMsg e) {
      Out o = new Out().str("type", ExecExitMsg.TYPE).str("cause", e.cause());
      nullableInteger(o.node, "exit_code", e.exitCode());
      return o.integer("signal", e.signal()).bool("timed_out", e.timedOut()).num("duration_ms", e.durationMs())
          .bool("truncated", e.truncated()).str("error", e.error()).node;
    }
    throw new IllegalArgumentException("not an ACI message: " + m);
  }

  private static void nullableInteger(ObjectNode node, String field, Long v) {
    if (v == null) {
      node.putNull(field);
    } else {
      node.put(field, v);
    }
  }

  private static ObjectNode capabilities(Capabilities c) {
    Out o = new Out();
    o.node.put("schema_version", 0);
    return o.enums("verbs", c.verbs()).enums("targets", c.targets()).enums("observation_types", c.observationTypes())
        .integer("max_long_edge", c.maxLongEdge()).enums("image_formats", c.imageFormats())
        .bool("binary_frames", c.binaryFrames()).bool("frame_dedup", c.frameDedup())
        .bool("observe_after_act", c.observeAfterAct()).bool("structured_observation", c.structuredObservation())
        .node;
  }

  static ObjectNode observation(ObservationMsg m) {
    return new Out().str("type", ObservationMsg.TYPE).str("obs_id", m.obsId()).str("cause", m.cause())
        .str("stream", m.stream()).integer("seq", m.seq())
        .json("display", m.display() == null ? null : coordinateSpace(m.display()))
        .en("tree", m.tree()).str("tree_text", m.treeText()).integer("revision", m.revision())
        .integer("diff_of", m.diffOf()).str("focus", m.focus()).integer("node_count", m.nodeCount())
        .num("capture_ms", m.captureMs()).list("elements", m.elements(), JsonEncoders::element)
        .json("delta", m.delta() == null ? null : delta(m.delta()))
        .json("image", m.image() == null ? null : image(m.image()))
        .list("tiles", m.tiles(), JsonEncoders::tile).str("frame_hash", m.frameHash())
        .bool("not_modified", m.notModified())
        .json("pointer", m.pointer() == null ? null : pointer(m.pointer())).node;
  }

  private static JsonNode pointer(PointerPosition p) {
    return F.arrayNode().add(p.x()).add(p.y());
  }

  private static ObjectNode image(ObservationImage i) {
    Out o = new Out().str("ref", i.ref());
    o.node.put("w", i.w()).put("h", i.h());
    return o.str("scope", i.scope() == null ? null : i.scope().wire()).en("format", i.format()).node;
  }

  static ObjectNode tile(Tile t) {
    ObjectNode n = F.objectNode();
    n.put("x", t.x()).put("y", t.y()).put("w", t.w()).put("h", t.h()).put("ref", t.ref());
    return n;
  }

  private static ObjectNode delta(Delta d) {
    return new Out().list("added", d.added(), JsonEncoders::element).strings("removed", d.removed())
        .list("changed", d.changed(), JsonEncoders::element).node;
  }

  static ObjectNode coordinateSpace(CoordinateSpace c) {
    ObjectNode n = F.objectNode();
    n.put("origin", CoordinateSpace.ORIGIN).put("w", c.w()).put("h", c.h()).set("dpr", number(c.dpr()));
    ObjectNode r = n.putObject("source_rect");
    r.put("x", c.sourceRect().x()).put("y", c.sourceRect().y()).put("w", c.sourceRect().w())
        .put("h", c.sourceRect().h());
    n.putObject("delivered").put("w", c.delivered().w()).put("h", c.delivered().h());
    return n;
  }

  static ObjectNode element(Element e) {
    Out o = new Out().str("ref", e.ref()).str("role", e.role()).str("name", e.name())
        .str("description", e.description()).str("value", e.value()).strings("states", e.states())
        .strings("actions", e.actions()).bool("focused", e.focused());
    o.node.putArray("bbox").add(number(e.bbox().x())).add(number(e.bbox().y())).add(number(e.bbox().w()))
        .add(number(e.bbox().h()));
    return o.en("source", e.source()).json("provenance", e.provenance()).node;
  }

  static ObjectNode target(Target t) {
    ObjectNode n = F.objectNode();
    n.put("kind", t.kind().wire());
    if (t instanceof Target.PointPx p) {
      n.set("x", number(p.x()));
      n.set("y", number(p.y()));
    } else if (t instanceof Target.PointNorm p) {
      n.set("x", number(p.x()));
      n.set("y", number(p.y()));
    } else if (t instanceof Target.ElementRef r) {
      n.put("ref", r.ref());
      if (r.source() != null) {
        n.put("source", r.source().wire());
      }
    }
    return n;
  }

  static ObjectNode observeSpec(ObserveSpec s) {
    return new Out().str("scope", s.scope() == null ? null : s.scope().wire()).en("format", s.format())
        .integer("quality", s.quality()).integer("max_long_edge", s.maxLongEdge()).node;
  }

  static ObjectNode action(Action a) {
    Out o = new Out().en("verb", a.verb())
        .json("target", a.target() == null ? null : target(a.target()))
        .json("to", a.to() == null ? null : target(a.to()))
        .en("button", a.button()).integer("duration_ms", a.durationMs())
        .json("observe", a.observe() == null ? null : observeSpec(a.observe()))
        .str("text", a.text()).str("keys", a.keys()).num("dx", a.dx()).num("dy", a.dy()).integer("ms", a.ms())
        .str("scope", a.scope() == null ? null : a.scope().wire()).num("fps", a.fps())
        .integer("max_long_edge", a.maxLongEdge()).en("format", a.format()).integer("quality", a.quality())
        .bool("delta", a.delta()).str("resume_stream", a.resumeStream()).str("if_none_match", a.ifNoneMatch())
        .bool("structured", a.structured()).bool("diff", a.diff()).integer("settle_ms", a.settleMs())
        .strings("argv", a.argv()).str("shell", a.shell()).str("cwd", a.cwd());
    if (a.env() != null) {
      ObjectNode env = o.node.putObject("env");
      // Sorted so that the encoding of a map-valued field is deterministic.
      new java.util.TreeMap<>(a.env()).forEach(env::put);
    }
    return o.integer("timeout_ms", a.timeoutMs()).str("stdin", a.stdin()).bool("stream", a.stream())
        .bool("pty", a.pty()).str("app", a.app()).strings("args", a.args()).integer("window_id", a.windowId())
        .node;
  }

  static ObjectNode actionBatch(ActionBatch b) {
    return new Out().str("batch_id", b.batchId()).bool("stop_on_error", b.stopOnError())
        .list("actions", b.actions(), JsonEncoders::action).node;
  }

  static ObjectNode execResult(ExecResult r) {
    ObjectNode n = F.objectNode();
    nullableInteger(n, "exit_code", r.exitCode());
    Out o = new Out();
    o.node.setAll(n);
    return o.integer("signal", r.signal()).bool("timed_out", r.timedOut()).str("stdout", r.stdout())
        .str("stderr", r.stderr()).bool("stdout_truncated", r.stdoutTruncated())
        .bool("stderr_truncated", r.stderrTruncated()).num("duration_ms", r.durationMs()).node;
  }

  static ObjectNode binaryFrameHeader(BinaryFrameHeader h) {
    Out o = new Out().str("type", BinaryFrameHeader.TYPE).str("obs_id", h.obsId()).str("cause", h.cause())
        .str("stream", h.stream()).integer("seq", h.seq())
        .json("display", h.display() == null ? null : coordinateSpace(h.display()));
    if (h.image() != null) {
      BinaryImageRef i = h.image();
      Out img = new Out();
      img.node.put("off", i.off()).put("len", i.len()).put("w", i.w()).put("h", i.h());
      o.json("image", img.str("scope", i.scope() == null ? null : i.scope().wire()).en("format", i.format()).node);
    }
    o.list("tiles", h.tiles(), t -> {
      ObjectNode n = F.objectNode();
      n.put("x", t.x()).put("y", t.y()).put("w", t.w()).put("h", t.h()).put("off", t.off()).put("len", t.len());
      return n;
    });
    return o.str("frame_hash", h.frameHash()).json("pointer", h.pointer() == null ? null : pointer(h.pointer()))
        .node;
  }

  static ObjectNode binaryExecOutputHeader(BinaryExecOutputHeader h) {
    ObjectNode n = F.objectNode();
    n.put("type", BinaryExecOutputHeader.TYPE).put("cause", h.cause()).put("seq", h.seq())
        .put("channel", h.channel().wire());
    n.putObject("data").put("off", h.data().off()).put("len", h.data().len());
    return n;
  }

  static Map<Class<?>, Function<Object, ObjectNode>> definitions() {
    return Map.of(
        Action.class, x -> action((Action) x),
        ActionBatch.class, x -> actionBatch((ActionBatch) x),
        ExecResult.class, x -> execResult((ExecResult) x),
        BinaryFrameHeader.class, x -> binaryFrameHeader((BinaryFrameHeader) x),
        BinaryExecOutputHeader.class, x -> binaryExecOutputHeader((BinaryExecOutputHeader) x),
        Element.class, x -> element((Element) x),
        CoordinateSpace.class, x -> coordinateSpace((CoordinateSpace) x),
        ObserveSpec.class, x -> observeSpec((ObserveSpec) x),
        Tile.class, x -> tile((Tile) x));
  }
}
