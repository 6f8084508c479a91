package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * JSON tree to records, one method per schema definition. Field-level checks (presence, type,
 * unknown fields) happen here with full JSON pointers; value bounds and cross-field rules are the
 * record constructors', re-located under the object's path — so the decoder and the constructors
 * cannot drift apart.
 */
final class JsonDecoders {
  private JsonDecoders() {}

  private static final JsonNode ZERO = IntNode.valueOf(0);

  static AciMessage message(JsonNode node) {
    JsonIn in = JsonIn.open(node, "");
    String type = in.requiredString("type");
    return switch (type) {
      case Hello.TYPE -> hello(node);
      case Welcome.TYPE -> welcome(node);
      case Ping.TYPE -> ping(node);
      case Pong.TYPE -> pong(node);
      case Query.TYPE -> query(node);
      case Result.TYPE -> result(node);
      case ActionMsg.TYPE -> actionMsg(node);
      case Ack.TYPE -> ack(node);
      case ObservationMsg.TYPE -> observation(node, "");
      case ExecOutputMsg.TYPE -> execOutput(node);
      case ExecExitMsg.TYPE -> execExit(node);
      default -> throw new WireException(Reason.UNKNOWN_TYPE, "/type", "unknown message type \"" + type + "\"");
    };
  }

  /** Runs a record constructor and re-locates its complaint under {@code path}. */
  private static <T> T make(String path, Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (WireException e) {
      throw e.under(path);
    }
  }

  private static JsonIn top(JsonNode node, String type, Set<String> fields) {
    JsonIn in = JsonIn.closed(node, "", fields);
    in.constant("type", TextNode.valueOf(type), true, Reason.INVALID_VALUE);
    return in;
  }

  // ---- messages ------------------------------------------------------------------------------

  static Hello hello(JsonNode node) {
    JsonIn in = top(node, Hello.TYPE, Set.of("type", "v", "client", "accept", "token"));
    in.constant("v", ZERO, true, Reason.UNSUPPORTED_VERSION);
    ClientInfo client = in.requiredObject("client", (n, p) -> {
      JsonIn c = JsonIn.open(n, p);
      String name = c.requiredString("name");
      String version = c.requiredString("version");
      return make(p, () -> new ClientInfo(name, version));
    });
    Accept accept = in.object("accept", (n, p) -> {
      JsonIn a = JsonIn.open(n, p);
      List<ObservationType> types =
          a.list("observation_types", (v, q) -> JsonIn.enumOf(v, ObservationType.class, q));
      Boolean binary = a.bool("binary_frames");
      return make(p, () -> new Accept(types, binary));
    });
    String token = in.string("token");
    return make("", () -> new Hello(client, accept, token));
  }

  static Welcome welcome(JsonNode node) {
    JsonIn in = top(node, Welcome.TYPE, Set.of("type", "v", "server", "capabilities"));
    in.constant("v", ZERO, true, Reason.UNSUPPORTED_VERSION);
    ServerInfo server = in.requiredObject("server", (n, p) -> {
      JsonIn s = JsonIn.open(n, p);
      String name = s.requiredString("name");
      String version = s.requiredString("version");
      Platform platform = s.requiredEnum("platform", Platform.class);
      return make(p, () -> new ServerInfo(name, version, platform));
    });
    Capabilities caps = in.requiredObject("capabilities", JsonDecoders::capabilities);
    return make("", () -> new Welcome(server, caps));
  }

  private static Capabilities capabilities(JsonNode n, String p) {
    JsonIn c = JsonIn.closed(n, p, Set.of("schema_version", "verbs", "targets", "observation_types",
        "max_long_edge", "image_formats", "binary_frames", "frame_dedup", "observe_after_act",
        "structured_observation"));
    if (c.has("schema_version")) {
      c.integer("schema_version");
    }
    c.constant("schema_version", ZERO, true, Reason.UNSUPPORTED_VERSION);
    List<Verb> verbs = c.requiredList("verbs", (v, q) -> JsonIn.enumOf(v, Verb.class, q));
    List<TargetKind> targets = c.requiredList("targets", (v, q) -> JsonIn.enumOf(v, TargetKind.class, q));
    List<ObservationType> types =
        c.requiredList("observation_types", (v, q) -> JsonIn.enumOf(v, ObservationType.class, q));
    Integer maxLongEdge = c.saturatedInt("max_long_edge");
    List<ImageFormat> formats = c.list("image_formats", (v, q) -> JsonIn.enumOf(v, ImageFormat.class, q));
    Boolean binary = c.bool("binary_frames");
    Boolean dedup = c.bool("frame_dedup");
    Boolean observeAfterAct = c.bool("observe_after_act");
    Boolean structured = c.bool("structured_observation");
    return make(p, () -> new Capabilities(verbs, targets, types, maxLongEdge, formats, binary, dedup,
        observeAfterAct, structured));
  }

  static Ping ping(JsonNode node) {
    JsonIn in = top(node, Ping.TYPE, Set.of("type", "t"));
    Double t = in.number("t");
    return make("", () -> new Ping(t));
  }

  static Pong pong(JsonNode node) {
    JsonIn in = top(node, Pong.TYPE, Set.of("type", "t"));
    Double t = in.number("t");
    return make("", () -> new Pong(t));
  }

  static Query query(JsonNode node) {
    JsonIn in = top(node, Query.TYPE, Set.of("type", "call_id", "q"));
    String callId = in.requiredString("call_id");
    QueryKind q = in.requiredEnum("q", QueryKind.class);
    return make("", () -> new Query(callId, q));
  }

  static Result result(JsonNode node) {
    JsonIn in = top(node, Result.TYPE, Set.of("type", "call_id", "ok", "value", "error"));
    String callId = in.requiredString("call_id");
    boolean ok = in.requiredBool("ok");
    JsonNode value = in.raw("value");
    String error = in.string("error");
    return make("", () -> new Result(callId, ok, value, error));
  }

  static ActionMsg actionMsg(JsonNode node) {
    JsonIn in = top(node, ActionMsg.TYPE, Set.of("type", "call_id", "action"));
    String callId = in.requiredString("call_id");
    Action action = in.requiredObject("action", JsonDecoders::action);
    return make("", () -> new ActionMsg(callId, action));
  }

  static Ack ack(JsonNode node) {
    JsonIn in = top(node, Ack.TYPE, Set.of("type", "call_id", "ok", "error"));
    String callId = in.requiredString("call_id");
    boolean ok = in.requiredBool("ok");
    String error = in.string("error");
    return make("", () -> new Ack(callId, ok, error));
  }

  private static final Set<String> OBSERVATION_FIELDS = Set.of("type", "obs_id", "cause", "stream", "seq",
      "display", "tree", "tree_text", "revision", "diff_of", "focus", "node_count", "capture_ms", "elements",
      "delta", "image", "tiles", "frame_hash", "not_modified", "pointer");

  static ObservationMsg observation(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, OBSERVATION_FIELDS);
    in.constant("type", TextNode.valueOf(ObservationMsg.TYPE), true, Reason.INVALID_VALUE);
    ObservationMsg.Builder b = ObservationMsg.builder(in.requiredString("obs_id"))
        .cause(in.string("cause"))
        .stream(in.string("stream"))
        .seq(in.integer("seq"))
        .display(in.object("display", JsonDecoders::coordinateSpace))
        .tree(in.enumValue("tree", TreeForm.class))
        .treeText(in.string("tree_text"))
        .revision(in.integer("revision"))
        .diffOf(in.integer("diff_of"))
        .focus(in.string("focus"))
        .nodeCount(in.integer("node_count"))
        .captureMs(in.number("capture_ms"))
        .elements(in.list("elements", JsonDecoders::element))
        .delta(in.object("delta", JsonDecoders::delta))
        .image(in.object("image", JsonDecoders::observationImage))
        .tiles(in.list("tiles", JsonDecoders::tile))
        .frameHash(in.string("frame_hash"))
        .pointer(in.object("pointer", JsonDecoders::pointer));
    if (in.has("not_modified")) {
      in.constant("not_modified", com.fasterxml.jackson.databind.node.BooleanNode.TRUE, false,
          in.raw("not_modified").isBoolean() ? Reason.INVALID_VALUE : Reason.WRONG_TYPE);
      b.notModified(Boolean.TRUE);
    }
    return make(path, b::build);
  }

  static ExecOutputMsg execOutput(JsonNode node) {
    JsonIn in = top(node, ExecOutputMsg.TYPE, Set.of("type", "cause", "seq", "channel", "data_b64"));
    String cause = in.requiredString("cause");
    long seq = in.requiredInteger("seq");
    Channel channel = in.requiredEnum("channel", Channel.class);
    String data = in.requiredString("data_b64");
    return make("", () -> new ExecOutputMsg(cause, seq, channel, data));
  }

  static ExecExitMsg execExit(JsonNode node) {
    JsonIn in = top(node, ExecExitMsg.TYPE,
        Set.of("type", "cause", "exit_code", "signal", "timed_out", "duration_ms", "truncated", "error"));
    String cause = in.requiredString("cause");
    Long exitCode = in.requiredNullableInteger("exit_code");
    Long signal = in.nullableInteger("signal");
    boolean timedOut = in.requiredBool("timed_out");
    double duration = in.requiredNumber("duration_ms");
    boolean truncated = in.requiredBool("truncated");
    String error = in.string("error");
    return make("", () -> new ExecExitMsg(cause, exitCode, signal, timedOut, duration, truncated, error));
  }

  // ---- definitions ---------------------------------------------------------------------------

  private static final Set<String> ACTION_FIELDS = Set.of("verb", "target", "to", "button", "duration_ms",
      "observe", "text", "keys", "dx", "dy", "ms", "scope", "fps", "max_long_edge", "format", "quality", "delta",
      "resume_stream", "if_none_match", "structured", "diff", "settle_ms", "argv", "shell", "cwd", "env",
      "timeout_ms", "stdin", "stream", "pty", "app", "args", "window_id");

  static Action action(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, ACTION_FIELDS);
    Action.Builder b = Action.builder(in.requiredEnum("verb", Verb.class))
        .target(in.object("target", JsonDecoders::target))
        .to(in.object("to", JsonDecoders::target))
        .button(in.enumValue("button", PointerButton.class))
        .durationMs(in.integer("duration_ms"))
        .observe(in.object("observe", JsonDecoders::observeSpec))
        .text(in.string("text"))
        .keys(in.string("keys"))
        .dx(in.number("dx"))
        .dy(in.number("dy"))
        .ms(in.integer("ms"))
        .scope(in.object("scope", JsonIn::scopeValue))
        .fps(in.number("fps"))
        .maxLongEdge(in.saturatedInt("max_long_edge"))
        .format(in.enumValue("format", ImageFormat.class))
        .quality(in.int32("quality"))
        .delta(in.bool("delta"))
        .resumeStream(in.string("resume_stream"))
        .ifNoneMatch(in.string("if_none_match"))
        .structured(in.bool("structured"))
        .diff(in.bool("diff"))
        .settleMs(in.integer("settle_ms"))
        .argv(in.strings("argv"))
        .shell(in.string("shell"))
        .cwd(in.string("cwd"))
        .env(in.stringMap("env"))
        .timeoutMs(in.integer("timeout_ms"))
        .stdin(in.string("stdin"))
        .stream(in.bool("stream"))
        .app(in.string("app"))
        .args(in.strings("args"))
        .windowId(in.integer("window_id"));
    if (in.has("pty")) {
      JsonNode pty = in.raw("pty");
      if (!pty.isBoolean()) {
        throw new WireException(Reason.WRONG_TYPE, in.at("pty"), "must be false (pty is reserved), got "
            + JsonIn.kind(pty));
      }
      b.pty(pty.booleanValue());
    }
    return make(path, b::build);
  }

  static Target target(JsonNode node, String path) {
    JsonIn probe = JsonIn.open(node, path);
    TargetKind kind = probe.requiredEnum("kind", TargetKind.class);
    return switch (kind) {
      case POINT_PX -> {
        JsonIn in = JsonIn.closed(node, path, Set.of("kind", "x", "y"));
        double x = in.requiredNumber("x");
        double y = in.requiredNumber("y");
        yield make(path, () -> new Target.PointPx(x, y));
      }
      case POINT_NORM -> {
        JsonIn in = JsonIn.closed(node, path, Set.of("kind", "x", "y"));
        double x = in.requiredNumber("x");
        double y = in.requiredNumber("y");
        yield make(path, () -> new Target.PointNorm(x, y));
      }
      case ELEMENT_REF -> {
        JsonIn in = JsonIn.closed(node, path, Set.of("kind", "ref", "source"));
        String ref = in.requiredString("ref");
        ElementSource source = in.enumValue("source", ElementSource.class);
        yield make(path, () -> new Target.ElementRef(ref, source));
      }
    };
  }

  static ObserveSpec observeSpec(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("scope", "format", "quality", "max_long_edge"));
    Scope scope = in.object("scope", JsonIn::scopeValue);
    ImageFormat format = in.enumValue("format", ImageFormat.class);
    Integer quality = in.int32("quality");
    Integer maxLongEdge = in.saturatedInt("max_long_edge");
    return make(path, () -> new ObserveSpec(scope, format, quality, maxLongEdge));
  }

  static ActionBatch actionBatch(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("batch_id", "stop_on_error", "actions"));
    String batchId = in.string("batch_id");
    Boolean stop = in.bool("stop_on_error");
    List<Action> actions = in.requiredList("actions", JsonDecoders::action);
    return make(path, () -> new ActionBatch(batchId, stop, actions));
  }

  static ExecResult execResult(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("exit_code", "signal", "timed_out", "stdout", "stderr",
        "stdout_truncated", "stderr_truncated", "duration_ms"));
    Long exitCode = in.requiredNullableInteger("exit_code");
    Long signal = in.nullableInteger("signal");
    boolean timedOut = in.requiredBool("timed_out");
    String stdout = in.requiredString("stdout");
    String stderr = in.requiredString("stderr");
    boolean outTrunc = in.requiredBool("stdout_truncated");
    boolean errTrunc = in.requiredBool("stderr_truncated");
    double duration = in.requiredNumber("duration_ms");
    return make(path, () -> new ExecResult(exitCode, signal, timedOut, stdout, stderr, outTrunc, errTrunc, duration));
  }

  static Element element(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("ref", "role", "name", "description", "value", "states",
        "actions", "focused", "bbox", "source", "provenance"));
    String ref = in.requiredString("ref");
    String role = in.requiredString("role");
    String name = in.string("name");
    String description = in.string("description");
    String value = in.string("value");
    List<String> states = in.strings("states");
    List<String> actions = in.strings("actions");
    Boolean focused = in.bool("focused");
    Bbox bbox = in.requiredObject("bbox", JsonDecoders::bbox);
    ElementSource source = in.enumValue("source", ElementSource.class);
    var provenance = in.object("provenance", (n, p) -> {
      try {
        return Element.requireObject(n, "");
      } catch (WireException e) {
        throw e.under(p);
      }
    });
    return make(path, () -> new Element(ref, role, name, description, value, states, actions, focused, bbox,
        source, provenance));
  }

  private static Bbox bbox(JsonNode node, String path) {
    double[] v = numbers(node, path, 4);
    return make(path, () -> new Bbox(v[0], v[1], v[2], v[3]));
  }

  private static PointerPosition pointer(JsonNode node, String path) {
    if (!node.isArray()) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be an array, got " + JsonIn.kind(node));
    }
    long[] v = new long[node.size()];
    for (int i = 0; i < node.size(); i++) {
      v[i] = JsonIn.integerValue(node.get(i), path + "/" + i);
    }
    arity(node, path, 2);
    return new PointerPosition(v[0], v[1]);
  }

  private static double[] numbers(JsonNode node, String path, int count) {
    if (!node.isArray()) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be an array, got " + JsonIn.kind(node));
    }
    double[] v = new double[node.size()];
    for (int i = 0; i < node.size(); i++) {
      v[i] = JsonIn.numberValue(node.get(i), path + "/" + i);
    }
    arity(node, path, count);
    return v;
  }

  private static void arity(JsonNode array, String path, int count) {
    if (array.size() != count) {
      throw new WireException(Reason.INVALID_VALUE, path,
          "must have exactly " + count + " items, got " + array.size());
    }
  }

  private static Delta delta(JsonNode node, String path) {
    JsonIn in = JsonIn.open(node, path);
    List<Element> added = in.list("added", JsonDecoders::element);
    List<String> removed = in.strings("removed");
    List<Element> changed = in.list("changed", JsonDecoders::element);
    return make(path, () -> new Delta(added, removed, changed));
  }

  private static ObservationImage observationImage(JsonNode node, String path) {
    JsonIn in = JsonIn.open(node, path);
    String ref = in.requiredString("ref");
    long w = in.requiredInteger("w");
    long h = in.requiredInteger("h");
    Scope scope = in.object("scope", JsonIn::scopeValue);
    ImageFormat format = in.enumValue("format", ImageFormat.class);
    return make(path, () -> new ObservationImage(ref, w, h, scope, format));
  }

  static Tile tile(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("x", "y", "w", "h", "ref"));
    long x = in.requiredInteger("x");
    long y = in.requiredInteger("y");
    long w = in.requiredInteger("w");
    long h = in.requiredInteger("h");
    String ref = in.requiredString("ref");
    return make(path, () -> new Tile(x, y, w, h, ref));
  }

  static CoordinateSpace coordinateSpace(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("origin", "w", "h", "dpr", "source_rect", "delivered"));
    in.constant("origin", TextNode.valueOf(CoordinateSpace.ORIGIN), true,
        in.has("origin") && !in.raw("origin").isTextual() ? Reason.WRONG_TYPE : Reason.INVALID_VALUE);
    long w = in.requiredInteger("w");
    long h = in.requiredInteger("h");
    double dpr = in.requiredNumber("dpr");
    CoordinateRect rect = in.requiredObject("source_rect", (n, p) -> {
      JsonIn r = JsonIn.closed(n, p, Set.of("x", "y", "w", "h"));
      long x = r.requiredInteger("x");
      long y = r.requiredInteger("y");
      long rw = r.requiredInteger("w");
      long rh = r.requiredInteger("h");
      return make(p, () -> new CoordinateRect(x, y, rw, rh));
    });
    CoordinateSize delivered = in.requiredObject("delivered", (n, p) -> {
      JsonIn s = JsonIn.closed(n, p, Set.of("w", "h"));
      long sw = s.requiredInteger("w");
      long sh = s.requiredInteger("h");
      return make(p, () -> new CoordinateSize(sw, sh));
    });
    return make(path, () -> new CoordinateSpace(w, h, dpr, rect, delivered));
  }

  static BinaryFrameHeader binaryFrameHeader(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("type", "obs_id", "cause", "stream", "seq", "display", "image",
        "tiles", "frame_hash", "pointer"));
    in.constant("type", TextNode.valueOf(BinaryFrameHeader.TYPE), true, Reason.INVALID_VALUE);
    String obsId = in.requiredString("obs_id");
    String cause = in.string("cause");
    String stream = in.string("stream");
    Long seq = in.integer("seq");
    CoordinateSpace display = in.object("display", JsonDecoders::coordinateSpace);
    BinaryImageRef image = in.object("image", (n, p) -> {
      JsonIn i = JsonIn.closed(n, p, Set.of("off", "len", "w", "h", "scope", "format"));
      long off = i.requiredInteger("off");
      long len = i.requiredInteger("len");
      long w = i.requiredInteger("w");
      long h = i.requiredInteger("h");
      Scope scope = i.object("scope", JsonIn::scopeValue);
      ImageFormat format = i.enumValue("format", ImageFormat.class);
      return make(p, () -> new BinaryImageRef(off, len, w, h, scope, format));
    });
    List<BinaryTile> tiles = in.list("tiles", (n, p) -> {
      JsonIn t = JsonIn.closed(n, p, Set.of("x", "y", "w", "h", "off", "len"));
      long x = t.requiredInteger("x");
      long y = t.requiredInteger("y");
      long w = t.requiredInteger("w");
      long h = t.requiredInteger("h");
      long off = t.requiredInteger("off");
      long len = t.requiredInteger("len");
      return make(p, () -> new BinaryTile(x, y, w, h, off, len));
    });
    String frameHash = in.string("frame_hash");
    PointerPosition pointer = in.object("pointer", JsonDecoders::pointer);
    return make(path, () -> new BinaryFrameHeader(obsId, cause, stream, seq, display, image, tiles, frameHash,
        pointer));
  }

  static BinaryExecOutputHeader binaryExecOutputHeader(JsonNode node, String path) {
    JsonIn in = JsonIn.closed(node, path, Set.of("type", "cause", "seq", "channel", "data"));
    in.constant("type", TextNode.valueOf(BinaryExecOutputHeader.TYPE), true, Reason.INVALID_VALUE);
    String cause = in.requiredString("cause");
    long seq = in.requiredInteger("seq");
    Channel channel = in.requiredEnum("channel", Channel.class);
    ByteRange data = in.requiredObject("data", (n, p) -> {
      JsonIn d = JsonIn.closed(n, p, Set.of("off", "len"));
      long off = d.requiredInteger("off");
      long len = d.requiredInteger("len");
      return make(p, () -> new ByteRange(off, len));
    });
    return make(path, () -> new BinaryExecOutputHeader(cause, seq, channel, data));
  }
}
