package dev.agentdesk.aci.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.AciClientException.Reason;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.wire.Accept;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ActionBatch;
import dev.agentdesk.aci.wire.ActionMsg;
import dev.agentdesk.aci.wire.Capabilities;
import dev.agentdesk.aci.wire.ClientInfo;
import dev.agentdesk.aci.wire.ExecResult;
import dev.agentdesk.aci.wire.Hello;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Ping;
import dev.agentdesk.aci.wire.Platform;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.Pong;
import dev.agentdesk.aci.wire.Query;
import dev.agentdesk.aci.wire.QueryKind;
import dev.agentdesk.aci.wire.Result;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.Welcome;
import dev.agentdesk.aci.wire.WireCodec;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The Java client of an ACI v0 runtime. {@link #connect} opens the WebSocket, sends hello and
 * returns once the welcome arrived; then every verb and query is a typed, blocking method whose
 * reply is matched by call id and bounded by a timeout ({@link #withTimeout} for a different one).
 * Server-pushed frames (screencast observations, exec output) reach listeners. The client refuses,
 * before sending, anything the welcome does not advertise: a verb, a target kind, an image format,
 * {@code observe}, {@code if_none_match}.
 */
public final class AciClient implements AutoCloseable {
  private static final AtomicLong CLIENT_IDS = new AtomicLong();

  private final Session session;
  private final Welcome welcome;
  private final FrameCache cache;
  private final AtomicLong calls;
  private final String callPrefix;
  private final Duration timeout;

  private AciClient(Session session, Welcome welcome, FrameCache cache, AtomicLong calls, String callPrefix,
      Duration timeout) {
    this.session = session;
    this.welcome = welcome;
    this.cache = cache;
    this.calls = calls;
    this.callPrefix = callPrefix;
    this.timeout = timeout;
  }

  /**
   * Opens a session: WebSocket to {@code uri}, hello, welcome. Throws {@link AciClientException}
   * with {@code CONNECT_FAILED} or {@code HANDSHAKE_FAILED} (the runtime's error text included).
   */
  public static AciClient connect(URI uri, AciClientOptions options) {
    Session session = new Session(options.validateOutgoing(), options.binaryFrames());
    session.open(uri, options.connectTimeout());
    Accept accept = options.observationTypes() == null && !options.binaryFrames() ? null
        : new Accept(options.observationTypes(), options.binaryFrames() ? Boolean.TRUE : null);
    Hello hello = new Hello(new ClientInfo(options.clientName(), options.clientVersion()), accept, options.token());
    AciMessage reply;
    try {
      session.send(hello, options.connectTimeout());
      reply = session.awaitHandshake(options.connectTimeout());
    } catch (AciClientException e) {
      session.close(Duration.ofSeconds(1));
      throw new AciClientException(Reason.HANDSHAKE_FAILED, "handshake with " + uri + " failed: " + e.getMessage(), e);
    }
    if (!(reply instanceof Welcome w)) {
      session.close(Duration.ofSeconds(1));
      String why = reply instanceof Result r && r.error() != null ? r.error() : "expected welcome, got " + reply.type();
      throw new AciClientException(Reason.HANDSHAKE_FAILED, "runtime at " + uri + " refused the hello: " + why);
    }
    return new AciClient(session, w, new FrameCache(), new AtomicLong(),
        "c" + CLIENT_IDS.incrementAndGet() + "-", options.callTimeout());
  }

  /** The same session with another reply timeout for the calls made through the returned view. */
  public AciClient withTimeout(Duration callTimeout) {
    if (callTimeout.isNegative() || callTimeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive");
    }
    return new AciClient(session, welcome, cache, calls, callPrefix, callTimeout);
  }

  public Welcome welcome() {
    return welcome;
  }

  public Capabilities capabilities() {
    return welcome.capabilities();
  }

  public Duration timeout() {
    return timeout;
  }

  public boolean isOpen() {
    return session.isOpen();
  }

  // ---- listeners -----------------------------------------------------------------------------

  /** Observations nobody asked for by call id: screencast frames, mostly. */
  public void onObservation(Consumer<ObservationMsg> listener) {
    session.onObservation(listener);
  }

  /** Every {@code exec_output}/{@code exec_exit} event, also those of streams read via {@link ExecStream}. */
  public void onExecEvent(Consumer<AciMessage> listener) {
    session.onExecEvent(listener);
  }

  /** Session-level errors: {@code result}s with call id {@code "?"}, and frames that break the contract. */
  public void onSessionError(Consumer<String> listener) {
    session.onSessionError(listener);
  }

  // ---- queries -------------------------------------------------------------------------------

  /**
   * Sends a query and returns the {@code result} message as received, {@code ok:false} included
   * (for callers that show the wire, like the CLI's --json).
   */
  public Result ask(QueryKind q) {
    String id = nextCallId();
    LinkedBlockingQueue<Object> replies = session.register(id);
    try {
      session.send(new Query(id, q), timeout);
      return expect(Session.await(replies, "query " + q.wire(), timeout), Result.class, "query " + q.wire());
    } finally {
      session.unregister(id);
    }
  }

  /** Sends a query and returns its {@code value} (never null: an absent value is a JSON null). */
  public JsonNode query(QueryKind q) {
    Result r = ask(q);
    if (!r.ok()) {
      throw remote("query " + q.wire(), r.error());
    }
    return r.value() == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : r.value();
  }

  public Platform platform() {
    JsonNode v = query(QueryKind.PLATFORM);
    Platform p = v.isTextual() ? dev.agentdesk.aci.wire.WireEnum.lookup(Platform.class, v.textValue()) : null;
    if (p == null) {
      throw violation("platform query answered " + v);
    }
    return p;
  }

  public ScreenSize screenSize() {
    JsonNode v = query(QueryKind.SCREEN_SIZE);
    if (!v.path("w").canConvertToLong() || !v.path("h").canConvertToLong()) {
      throw violation("screen_size query answered " + v);
    }
    return new ScreenSize(v.get("w").longValue(), v.get("h").longValue());
  }

  /** The {@code ready} query's object (ready, x11_up, display_up, ...), as sent. */
  public JsonNode ready() {
    return query(QueryKind.READY);
  }

  public List<WindowInfo> listWindows() {
    JsonNode v = query(QueryKind.LIST_WINDOWS);
    if (!v.isArray()) {
      throw violation("list_windows query answered " + v);
    }
    List<WindowInfo> out = new ArrayList<>();
    for (JsonNode w : v) {
      if (!w.path("id").canConvertToLong()) {
        throw violation("list_windows entry without an integer id: " + w);
      }
      out.add(new WindowInfo(w.get("id").longValue(), w.path("title").asText(""),
          w.path("pid").canConvertToLong() ? w.get("pid").longValue() : null, w.path("x").asLong(),
          w.path("y").asLong(), w.path("w").asLong(), w.path("h").asLong(), w.path("focused").asBoolean(false)));
    }
    return out;
  }

  /** Round trip of a {@code ping}/{@code pong}. */
  public synchronized Duration ping() {
    double t = calls.incrementAndGet();
    LinkedBlockingQueue<Object> replies = session.register(Session.PONG_KEY);
    try {
      long start = System.nanoTime();
      session.send(new Ping(t), timeout);
      while (true) {
        Pong p = expect(Session.await(replies, "ping", timeout), Pong.class, "ping");
        if (p.t() != null && p.t() == t) {
          return Duration.ofNanos(System.nanoTime() - start);
        }
      }
    } finally {
      session.unregister(Session.PONG_KEY);
    }
  }

  // ---- the generic action call ---------------------------------------------------------------

  /**
   * Sends one action and waits for its reply: an observation for screenshot/observe, a result for
   * buffered exec and clipboard_get, an ack (plus the follow-up observation when {@code observe}
   * is set) for the rest. A nack or error result throws {@code REMOTE_ERROR} with the runtime's
   * words. For streamed exec use {@link #execStream}.
   */
  public ActionReply act(Action action) {
    if (action.verb() == Verb.EXEC && Boolean.TRUE.equals(action.stream())) {
      throw new IllegalArgumentException("a streamed exec is read through execStream(...)");
    }
    Advertised.require(capabilities(), action);
    String id = nextCallId();
    LinkedBlockingQueue<Object> replies = session.register(id);
    try {
      session.send(new ActionMsg(id, action), timeout);
      String what = action.verb().wire() + " (" + id + ")";
      AciMessage first = Session.await(replies, what, timeout);
      failIfNotOk(first, what);
      return switch (action.verb()) {
        case SCREENSHOT, OBSERVE -> new ActionReply.Observed(expect(first, ObservationMsg.class, what));
        case EXEC, CLIPBOARD_GET -> new ActionReply.Returned(expect(first, Result.class, what));
        default -> {
          Ack ack = expect(first, Ack.class, what);
          ObservationMsg followUp = null;
          if (action.observe() != null) {
            AciMessage second = Session.await(replies, "observation after " + what, timeout);
            failIfNotOk(second, "observation after " + what);
            followUp = expect(second, ObservationMsg.class, "observation after " + what);
          }
          yield new ActionReply.Acked(ack, followUp);
        }
      };
    } finally {
      session.unregister(id);
    }
  }

  /**
   * Runs the batch's actions one after another, each as its own {@code action} frame (batch_id and
   * stop_on_error never go on the wire). With stop_on_error (the default) the first failure skips
   * the rest. Session-level failures (timeout, closed) are failures of the action too.
   */
  public BatchResult run(ActionBatch batch) {
    List<ActionOutcome> outcomes = new ArrayList<>();
    boolean stopped = false;
    for (Action a : batch.actions()) {
      if (stopped) {
        outcomes.add(new ActionOutcome(a, ActionOutcome.Status.SKIPPED, null, null));
        continue;
      }
      try {
        outcomes.add(new ActionOutcome(a, ActionOutcome.Status.OK, act(a), null));
      } catch (AciClientException e) {
        outcomes.add(new ActionOutcome(a, ActionOutcome.Status.FAILED, null, e.getMessage()));
        stopped = batch.stopOnErrorOrDefault();
      }
    }
    return new BatchResult(batch.batchId(), outcomes);
  }

  // ---- typed verbs ---------------------------------------------------------------------------

  public Ack click(Target at) {
    return acked(Action.click(at));
  }

  public Ack doubleClick(Target at) {
    return acked(Action.doubleClick(at));
  }

  public Ack rightClick(Target at) {
    return acked(Action.rightClick(at));
  }

  public Ack move(Target to) {
    return acked(Action.move(to));
  }

  /** Drag with the left button; {@code durationMs} may be null (fastest). */
  public Ack drag(Target from, Target to, PointerButton button, Long durationMs) {
    return acked(Action.builder(Verb.DRAG).target(from).to(to).button(button).durationMs(durationMs).build());
  }

  /** Press a button, at {@code at} or (null) where the pointer is. */
  public Ack mouseDown(Target at, PointerButton button) {
    return acked(Action.builder(Verb.MOUSE_DOWN).target(at).button(button).build());
  }

  public Ack mouseUp(Target at, PointerButton button) {
    return acked(Action.builder(Verb.MOUSE_UP).target(at).button(button).build());
  }

  /** Scroll by pixels at a point: +dy down, +dx right. */
  public Ack scroll(Target at, double dx, double dy) {
    return acked(Action.scroll(at, dx, dy));
  }

  public Ack typeText(String text) {
    return acked(Action.typeText(text));
  }

  public Ack key(String combo) {
    return acked(Action.key(combo));
  }

  public Ack waitMs(long ms) {
    return acked(Action.waitMs(ms));
  }

  public Ack invokeAction(String elementRef, String actionName) {
    return acked(Action.builder(Verb.INVOKE_ACTION).target(new Target.ElementRef(elementRef)).text(actionName).build());
  }

  public Ack setValue(String elementRef, String value) {
    return acked(Action.builder(Verb.SET_VALUE).target(new Target.ElementRef(elementRef)).text(value).build());
  }

  public Ack clipboardSet(String text) {
    return acked(Action.clipboardSet(text));
  }

  public String clipboardGet() {
    Result r = ((ActionReply.Returned) act(Action.clipboardGet())).result();
    JsonNode v = r.value();
    if (v == null || !v.path("text").isTextual()) {
      throw violation("clipboard_get answered " + v);
    }
    return v.get("text").textValue();
  }

  public Ack launchApp(String app, List<String> args) {
    return acked(Action.launchApp(app, args));
  }

  public Ack activateWindow(long windowId) {
    return acked(Action.activateWindow(windowId));
  }

  public Ack activateWindow(String titleFragment) {
    return acked(Action.activateWindowByTitle(titleFragment));
  }

  /** A structured (a11y) observation; {@code diff} and {@code settleMs} may be null. */
  public ObservationMsg observe(Boolean diff, Long settleMs) {
    Action a = Action.builder(Verb.OBSERVE).diff(diff).settleMs(settleMs).build();
    return ((ActionReply.Observed) act(a)).observation();
  }

  /**
   * A screenshot with the given capture levers ({@link ObserveSpec#DEFAULTS} for the runtime's).
   * Against a {@code frame_dedup} runtime the last frame taken with the same levers is offered as
   * {@code if_none_match}, and a {@code not_modified} reply returns the cached bytes.
   */
  public Screenshot screenshot(ObserveSpec levers) {
    FrameCache.Entry cached = capabilities().supportsFrameDedup() ? cache.get(levers) : null;
    Action a = Action.builder(Verb.SCREENSHOT).scope(levers.scope()).format(levers.format())
        .quality(levers.quality()).maxLongEdge(levers.maxLongEdge())
        .ifNoneMatch(cached == null ? null : cached.frameHash()).build();
    ObservationMsg o = ((ActionReply.Observed) act(a)).observation();
    if (o.isNotModified()) {
      if (cached == null || !cached.frameHash().equals(o.frameHash())) {
        throw violation("not_modified for frame " + o.frameHash() + " that this client never offered");
      }
      return new Screenshot(o, cached.image(), cached.width(), cached.height(), true);
    }
    if (o.image() == null) {
      throw violation("screenshot " + o.obsId() + " carries no image");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(o.image().ref());
    } catch (IllegalArgumentException e) {
      throw violation("screenshot " + o.obsId() + " image is not base64");
    }
    if (o.frameHash() != null && capabilities().supportsFrameDedup()) {
      cache.put(levers, new FrameCache.Entry(o.frameHash(), bytes, o.image().w(), o.image().h()));
    }
    return new Screenshot(o, bytes, o.image().w(), o.image().h(), false);
  }

  /**
   * Starts a screencast; frames arrive at {@link #onObservation} listeners as the runtime sends
   * them (keyframes and delta tiles). Returns the stream id (the call id). {@code fps}, {@code delta}
   * and {@code resumeStream} may be null. {@link #screencast} composes full frames instead.
   */
  public String startScreencast(ObserveSpec levers, Double fps, Boolean delta, String resumeStream) {
    String id = nextCallId();
    startStream(id, levers, fps, delta, resumeStream);
    return id;
  }

  /**
   * Starts a screencast and subscribes to it: every frame, keyframe or delta, text or binary, is
   * composited into a full picture, read with {@link Screencast#next} and, when {@code listener} is
   * not null, also handed to it on the client's event thread. Frames that arrive between the start
   * and this method's return are not lost. {@code fps}, {@code delta} and {@code resumeStream} may be null.
   */
  public Screencast screencast(ObserveSpec levers, Double fps, Boolean delta, String resumeStream,
      Consumer<StreamCompositor.Frame> listener) {
    String id = nextCallId();
    Screencast cast = new Screencast(this, id, resumeStream, listener);
    session.onObservation(cast.tap());
    try {
      startStream(id, levers, fps, delta, resumeStream);
    } catch (RuntimeException e) {
      session.removeObservationListener(cast.tap());
      throw e;
    }
    return cast;
  }

  void unsubscribe(Consumer<ObservationMsg> tap) {
    session.removeObservationListener(tap);
  }

  private void startStream(String id, ObserveSpec levers, Double fps, Boolean delta, String resumeStream) {
    Action a = Action.builder(Verb.START_SCREENCAST).scope(levers.scope()).format(levers.format())
        .quality(levers.quality()).maxLongEdge(levers.maxLongEdge()).fps(fps).delta(delta)
        .resumeStream(resumeStream).build();
    Advertised.require(capabilities(), a);
    LinkedBlockingQueue<Object> replies = session.register(id);
    try {
      session.send(new ActionMsg(id, a), timeout);
      AciMessage reply = Session.await(replies, "start_screencast (" + id + ")", timeout);
      failIfNotOk(reply, "start_screencast");
      expect(reply, Ack.class, "start_screencast");
    } finally {
      session.unregister(id);
    }
  }

  /**
   * A view of this client whose mutating verbs ask for observe-after-act with {@code levers}: each
   * returns the ack together with the fresh observation the runtime captured right after the
   * action. Needs {@code capabilities.observe_after_act}.
   */
  public ObservingClient observing(ObserveSpec levers) {
    return new ObservingClient(this, levers);
  }

  public Ack stopScreencast() {
    return acked(Action.builder(Verb.STOP_SCREENCAST).build());
  }

  /** The reference runtime's exec deadline when the action names none. */
  static final Duration RUNTIME_DEFAULT_EXEC_TIMEOUT = Duration.ofSeconds(60);

  /**
   * How long to wait for a buffered exec's result: the command's own deadline (or the runtime's
   * default) on top of the call timeout, so a long command is not cut short by the client.
   */
  public Duration execReplyTimeout(Action execAction) {
    Long ms = execAction.timeoutMs();
    return timeout.plus(ms == null ? RUNTIME_DEFAULT_EXEC_TIMEOUT : Duration.ofMillis(ms));
  }

  /**
   * A buffered exec ({@code stream} must not be set); a nonzero exit is a result, not an error.
   * The reply is awaited for {@link #execReplyTimeout}.
   */
  public ExecResult exec(Action execAction) {
    if (execAction.verb() != Verb.EXEC) {
      throw new IllegalArgumentException("not an exec action: " + execAction.verb().wire());
    }
    Result r = ((ActionReply.Returned) withTimeout(execReplyTimeout(execAction)).act(execAction)).result();
    try {
      return WireCodec.decodeAs(ExecResult.class, r.value() == null ? com.fasterxml.jackson.databind.node.NullNode
          .getInstance() : r.value());
    } catch (WireException e) {
      throw new AciClientException(Reason.PROTOCOL_VIOLATION, "exec result breaks the contract: " + e.getMessage(), e);
    }
  }

  /** Runs {@code argv} buffered. */
  public ExecResult exec(List<String> argv) {
    return exec(Action.exec(argv));
  }

  /**
   * A streamed exec: returns once the runtime acked, then yields output chunks and the exit. The
   * action is sent with {@code stream:true} whatever it says.
   */
  public ExecStream execStream(Action execAction) {
    if (execAction.verb() != Verb.EXEC) {
      throw new IllegalArgumentException("not an exec action: " + execAction.verb().wire());
    }
    Action a = execAction.toBuilder().stream(true).build();
    Advertised.require(capabilities(), a);
    String id = nextCallId();
    LinkedBlockingQueue<Object> replies = session.register(id);
    ExecStream stream = session.registerExec(id, timeout);
    boolean started = false;
    try {
      session.send(new ActionMsg(id, a), timeout);
      AciMessage reply = Session.await(replies, "exec (" + id + ")", timeout);
      failIfNotOk(reply, "exec");
      expect(reply, Ack.class, "streamed exec");
      started = true;
      return stream;
    } finally {
      session.unregister(id);
      if (!started) {
        session.unregisterExec(id);
      }
    }
  }

  // ---- plumbing ------------------------------------------------------------------------------

  private Ack acked(Action a) {
    return ((ActionReply.Acked) act(a)).ack();
  }

  private String nextCallId() {
    return callPrefix + calls.incrementAndGet();
  }

  private static void failIfNotOk(AciMessage m, String what) {
    if (m instanceof Ack a && !a.ok()) {
      throw remote(what, a.error());
    }
    if (m instanceof Result r && !r.ok()) {
      throw remote(what, r.error());
    }
  }

  private static <T extends AciMessage> T expect(AciMessage m, Class<T> type, String what) {
    if (!type.isInstance(m)) {
      throw violation(what + " was answered with " + m.type() + ", expected " + type.getSimpleName());
    }
    return type.cast(m);
  }

  private static AciClientException remote(String what, String error) {
    return new AciClientException(Reason.REMOTE_ERROR, error == null ? what + " failed (no error text)" : error);
  }

  private static AciClientException violation(String message) {
    return new AciClientException(Reason.PROTOCOL_VIOLATION, message);
  }

  /** Closes the session cleanly; every waiting call fails with {@code CLOSED}. Idempotent. */
  @Override
  public void close() {
    session.close(Duration.ofSeconds(2));
  }
}
