package dev.agentdesk.aci.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.AciClientException.Reason;
import dev.agentdesk.aci.testkit.TestRuntime;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ActionBatch;
import dev.agentdesk.aci.wire.Capabilities;
import dev.agentdesk.aci.wire.Channel;
import dev.agentdesk.aci.wire.ExecExitMsg;
import dev.agentdesk.aci.wire.ExecOutputMsg;
import dev.agentdesk.aci.wire.ExecResult;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObservationType;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Platform;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.Scope;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.TargetKind;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.WireCodec;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SDK against an in-process runtime over a real WebSocket. */
class AciClientTest {
  private static final AciClientOptions OPTIONS = AciClientOptions.defaults().withToken(TestRuntime.TOKEN)
      .withClient("sdk-test", "9.9").withCallTimeout(Duration.ofSeconds(10)).withValidateOutgoing(true);
  private static final Target AT = new Target.PointPx(10, 20);

  private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

  private TestRuntime runtime(Capabilities caps) {
    TestRuntime r = new TestRuntime(caps);
    open.add(r);
    return r;
  }

  private AciClient connect(TestRuntime r, AciClientOptions options) {
    AciClient c = AciClient.connect(r.uri(), options);
    open.add(0, c);
    return c;
  }

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private static List<JsonNode> sent(TestRuntime r, String type) {
    return r.received().stream().map(WireCodec::parse).filter(n -> n.path("type").asText().equals(type)).toList();
  }

  private static AciClientException failure(Runnable call) {
    try {
      call.run();
    } catch (AciClientException e) {
      return e;
    }
    throw new AssertionError("call did not fail");
  }

  @Test
  void connectSendsHelloAndReturnsTheWelcome() {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS);
    assertThat(c.welcome().server().name()).isEqualTo("test-runtime");
    assertThat(c.capabilities().supportsFrameDedup()).isTrue();
    JsonNode hello = sent(r, "hello").get(0);
    assertThat(hello.path("v").asInt()).isZero();
    assertThat(hello.path("client").path("name").asText()).isEqualTo("sdk-test");
    assertThat(hello.path("client").path("version").asText()).isEqualTo("9.9");
    assertThat(hello.path("token").asText()).isEqualTo(TestRuntime.TOKEN);
    assertThat(hello.path("accept").path("binary_frames").asBoolean()).isTrue();
    assertThat(hello.path("accept").path("observation_types").toString()).isEqualTo("[\"screenshot\",\"screencast\",\"a11y\"]");
  }

  @Test
  void aWrongTokenFailsTheHandshakeWithTheRuntimesWords() {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClientException e = failure(() -> connect(r, OPTIONS.withToken("wrong")));
    assertThat(e.reason()).isEqualTo(Reason.HANDSHAKE_FAILED);
    assertThat(e.getMessage()).contains("authentication required: missing or invalid token");
  }

  @Test
  void nothingListeningIsConnectFailed() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    AciClientException e = failure(() -> AciClient.connect(URI.create("ws://127.0.0.1:" + port + "/"),
        OPTIONS.withConnectTimeout(Duration.ofSeconds(2))));
    assertThat(e.reason()).isEqualTo(Reason.CONNECT_FAILED);
  }

  @Test
  void queriesAreTyped() {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS);
    assertThat(c.platform()).isEqualTo(Platform.LINUX);
    assertThat(c.screenSize()).isEqualTo(new ScreenSize(320, 200));
    assertThat(c.ready().path("ready").asBoolean()).isTrue();
    assertThat(c.listWindows()).containsExactly(
        new WindowInfo(0x1c00007, "Terminal", 42L, 0, 0, 200, 100, true),
        new WindowInfo(77, "xclock", null, 210, 0, 100, 100, false));
    assertThat(c.ping()).isPositive();
  }

  @Test
  void everyTypedVerbSendsTheActionItNames() {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS);
    Target to = new Target.PointNorm(0.5, 1);
    c.click(AT);
    c.doubleClick(AT);
    c.rightClick(AT);
    c.move(to);
    c.drag(AT, to, PointerButton.MIDDLE, 120L);
    c.mouseDown(null, PointerButton.RIGHT);
    c.mouseUp(AT, null);
    c.scroll(AT, 0, -300);
    c.typeText("héllo");
    c.key("ctrl+s");
    c.waitMs(1);
    c.invokeAction("e1", "press");
    c.setValue("e1", "42");
    c.clipboardSet("copied");
    c.launchApp("xclock", List.of("-digital"));
    c.activateWindow(77);
    c.activateWindow("Term");
    assertThat(r.actions()).containsExactly(
        Action.click(AT), Action.doubleClick(AT), Action.rightClick(AT), Action.move(to),
        Action.builder(Verb.DRAG).target(AT).to(to).button(PointerButton.MIDDLE).durationMs(120L).build(),
        Action.builder(Verb.MOUSE_DOWN).button(PointerButton.RIGHT).build(),
        Action.builder(Verb.MOUSE_UP).target(AT).build(),
        Action.scroll(AT, 0, -300), Action.typeText("héllo"), Action.key("ctrl+s"), Action.waitMs(1),
        Action.builder(Verb.INVOKE_ACTION).target(new Target.ElementRef("e1")).text("press").build(),
        Action.builder(Verb.SET_VALUE).target(new Target.ElementRef("e1")).text("42").build(),
        Action.clipboardSet("copied"), Action.launchApp("xclock", List.of("-digital")), Action.activateWindow(77),
        Action.activateWindowByTitle("Term"));
    assertThat(c.clipboardGet()).isEqualTo("copied");
    assertThat(c.observe(null, null).elements()).extracting(e -> e.ref()).containsExactly("e1");
  }

  @Test
  void everyCallHasItsOwnCallIdAndRepliesAreMatchedByIt() throws Exception {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS);
    // A slow wait and fast clicks in flight together: replies come back out of order.
    Thread slow = new Thread(() -> c.waitMs(400));
    slow.start();
    for (int i = 0; i < 5; i++) {
      c.click(AT);
    }
    slow.join(5000);
    assertThat(slow.isAlive()).isFalse();
    List<String> ids = sent(r, "action").stream().map(n -> n.path("call_id").asText()).toList();
    assertThat(ids).hasSize(6).doesNotHaveDuplicates();
  }

  @Test
  void observeAfterActReturnsTheFollowUpObservation() {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS);
    ActionReply reply = c.act(Action.builder(Verb.CLICK).target(AT).observe(new ObserveSpec(Scope.SCREEN, null, null, null)).build());
    ActionReply.Acked acked = (ActionReply.Acked) reply;
    assertThat(acked.ack().ok()).isTrue();
    assertThat(acked.followUp().cause()).isEqualTo(acked.ack().callId());
    assertThat(acked.followUp().image()).isNotNull();
  }

  @ParameterizedTest(name = "binary frames: {0}")
  @ValueSource(booleans = {false, true})
  void screenshotsArriveAsRealImagesInTextAndBinaryForm(boolean binary) throws Exception {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS.withBinaryFrames(binary));
    long binaryBefore = TestRuntime.binarySent();
    Screenshot shot = c.screenshot(ObserveSpec.DEFAULTS);
    assertThat(TestRuntime.binarySent() - binaryBefore).isEqualTo(binary ? 1 : 0);
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(shot.image()));
    assertThat(img.getWidth()).isEqualTo(32);
    assertThat(img.getHeight()).isEqualTo(20);
    assertThat(new Color(img.getRGB(3, 3))).isEqualTo(Color.BLUE);
    assertThat(shot.fromCache()).isFalse();
    assertThat(shot.observation().pointer()).isNotNull();
  }

  @Test
  void theFrameCacheSendsIfNoneMatchAndServesNotModifiedFromCache() throws Exception {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS);
    Screenshot first = c.screenshot(ObserveSpec.DEFAULTS);
    Screenshot second = c.screenshot(ObserveSpec.DEFAULTS);
    assertThat(second.fromCache()).isTrue();
    assertThat(second.observation().isNotModified()).isTrue();
    assertThat(second.image()).isEqualTo(first.image());
    assertThat(r.captures()).isEqualTo(1);
    List<JsonNode> shots = sent(r, "action");
    assertThat(shots.get(0).path("action").has("if_none_match")).isFalse();
    assertThat(shots.get(1).path("action").path("if_none_match").asText())
        .isEqualTo(first.observation().frameHash());

    r.paint(Color.RED);
    Screenshot third = c.screenshot(ObserveSpec.DEFAULTS);
    assertThat(third.fromCache()).isFalse();
    assertThat(new Color(ImageIO.read(new ByteArrayInputStream(third.image())).getRGB(1, 1))).isEqualTo(Color.RED);
    // Different capture levers never share a cache entry.
    assertThat(c.screenshot(new ObserveSpec(Scope.ACTIVE_WINDOW, null, null, null)).fromCache()).isFalse();
  }

  private static Capabilities without(java.util.function.UnaryOperator<Capabilities> change) {
    return change.apply(TestRuntime.fullCapabilities());
  }

  @Test
  void withoutFrameDedupTheClientNeverSendsIfNoneMatch() {
    Capabilities caps = without(k -> new Capabilities(k.verbs(), k.targets(), k.observationTypes(), k.maxLongEdge(),
        k.imageFormats(), k.binaryFrames(), null, k.observeAfterAct(), k.structuredObservation()));
    TestRuntime r = runtime(caps);
    AciClient c = connect(r, OPTIONS);
    c.screenshot(ObserveSpec.DEFAULTS);
    c.screenshot(ObserveSpec.DEFAULTS);
    assertThat(sent(r, "action")).allSatisfy(n -> assertThat(n.path("action").has("if_none_match")).isFalse());
    AciClientException e = failure(() -> c.act(Action.builder(Verb.SCREENSHOT).ifNoneMatch("00").build()));
    assertThat(e.reason()).isEqualTo(Reason.NOT_ADVERTISED);
    assertThat(e.getMessage()).contains("frame_dedup");
    assertThat(sent(r, "action")).hasSize(2);
  }

  @Test
  void fieldsAndVerbsTheWelcomeDoesNotAdvertiseAreRefusedBeforeSending() {
    Capabilities caps = new Capabilities(List.of(Verb.CLICK, Verb.SCREENSHOT, Verb.OBSERVE),
        List.of(TargetKind.POINT_PX), List.of(ObservationType.SCREENSHOT), null, null, null, null, null, null);
    TestRuntime r = runtime(caps);
    AciClient c = connect(r, OPTIONS);
    List<Runnable> refused = List.of(
        () -> c.act(Action.builder(Verb.CLICK).target(AT).observe(ObserveSpec.DEFAULTS).build()),
        () -> c.observe(null, null),
        () -> c.typeText("x"),
        () -> c.click(new Target.PointNorm(0, 0)),
        () -> c.screenshot(new ObserveSpec(null, ImageFormat.JPEG, 80, null)),
        () -> c.execStream(Action.exec(List.of("true"))));
    for (Runnable call : refused) {
      assertThat(failure(call).reason()).isEqualTo(Reason.NOT_ADVERTISED);
    }
    assertThat(sent(r, "action")).isEmpty();
    c.click(AT);
    assertThat(sent(r, "action")).hasSize(1);
  }

  @Test
  void bufferedExecRunsARealProcess() {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS);
    ExecResult r = c.exec(Action.execShell("echo out; echo err >&2; exit 3"));
    assertThat(r.exitCode()).isEqualTo(3L);
    assertThat(r.stdout()).isEqualTo("out\n");
    assertThat(r.stderr()).isEqualTo("err\n");
    assertThat(r.timedOut()).isFalse();
    assertThat(c.exec(List.of("printf", "%s", "a b")).stdout()).isEqualTo("a b");
  }

  @Test
  void aBufferedExecIsAwaitedForItsOwnDeadlineOnTopOfTheCallTimeout() {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS).withTimeout(Duration.ofMillis(300));
    Action slow = Action.builder(Verb.EXEC).argv(List.of("sleep", "0.8")).timeoutMs(5000L).build();
    assertThat(c.execReplyTimeout(slow)).isEqualTo(Duration.ofMillis(5300));
    assertThat(c.exec(slow).exitCode()).isZero();
    assertThat(c.execReplyTimeout(Action.exec(List.of("true")))).isEqualTo(Duration.ofMillis(60_300));
  }

  @ParameterizedTest(name = "binary frames: {0}")
  @ValueSource(booleans = {false, true})
  void streamedExecYieldsChunksThenTheExit(boolean binary) {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS.withBinaryFrames(binary));
    List<AciMessage> seenByListener = new CopyOnWriteArrayList<>();
    c.onExecEvent(seenByListener::add);
    long binaryBefore = TestRuntime.binarySent();
    ExecStream s = c.execStream(Action.execShell("for i in 1 2 3; do echo line$i; sleep 0.05; done; printf '\\377' >&2; exit 7"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long[] lastSeq = {-1};
    ExecExitMsg exit = s.drain(chunk -> {
      assertThat(chunk.seq()).isGreaterThan(lastSeq[0]);
      lastSeq[0] = chunk.seq();
      (chunk.channel() == Channel.STDOUT ? out : err).writeBytes(chunk.data());
    }, Duration.ofSeconds(10));
    assertThat(out.toString()).isEqualTo("line1\nline2\nline3\n");
    assertThat(err.toByteArray()).containsExactly(0xff);
    assertThat(exit.exitCode()).isEqualTo(7L);
    assertThat(s.finished()).isTrue();
    if (binary) {
      assertThat(TestRuntime.binarySent() - binaryBefore).isGreaterThanOrEqualTo(2); // stdout and stderr chunks; lines may coalesce
    }
    assertThatThrownBy(s::next).isInstanceOf(IllegalStateException.class);
    assertThat(sent(r, "action").get(0).path("action").path("stream").asBoolean()).isTrue();
    awaitUntil(() -> seenByListener.stream().anyMatch(m -> m instanceof ExecExitMsg));
  }

  @Test
  void screencastFramesReachObservationListeners() throws Exception {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS);
    List<ObservationMsg> frames = new CopyOnWriteArrayList<>();
    CountDownLatch three = new CountDownLatch(3);
    c.onObservation(o -> {
      frames.add(o);
      three.countDown();
    });
    String stream = c.startScreencast(ObserveSpec.DEFAULTS, 5.0, null, null);
    assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(frames).extracting(ObservationMsg::stream).containsOnly(stream);
    assertThat(frames).extracting(ObservationMsg::seq).containsExactly(0L, 1L, 2L);
    assertThat(c.stopScreencast().ok()).isTrue();
  }

  @Test
  void aBatchStopsOnTheFirstErrorByDefaultAndNeverPutsBatchFieldsOnTheWire() {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS);
    List<Action> actions = List.of(Action.click(AT), Action.launchApp("nope", List.of()), Action.typeText("x"));
    BatchResult stopped = c.run(new ActionBatch("b1", null, actions));
    assertThat(stopped.batchId()).isEqualTo("b1");
    assertThat(stopped.outcomes()).extracting(ActionOutcome::status).containsExactly(
        ActionOutcome.Status.OK, ActionOutcome.Status.FAILED, ActionOutcome.Status.SKIPPED);
    assertThat(stopped.outcomes().get(1).error()).isEqualTo("launch_app: failed to spawn \"nope\"");
    assertThat(r.actions()).hasSize(2);

    BatchResult all = c.run(new ActionBatch(null, false, actions));
    assertThat(all.outcomes()).extracting(ActionOutcome::status).containsExactly(
        ActionOutcome.Status.OK, ActionOutcome.Status.FAILED, ActionOutcome.Status.OK);
    assertThat(r.received()).noneMatch(t -> t.contains("batch_id") || t.contains("stop_on_error"));
  }

  @Test
  void aNackIsARemoteErrorCarryingTheRuntimesWords() {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS);
    AciClientException e = failure(c::clipboardGet);
    assertThat(e.reason()).isEqualTo(Reason.REMOTE_ERROR);
    assertThat(e.getMessage()).isEqualTo("clipboard is empty (nothing set this session)");
    assertThat(c.isOpen()).isTrue();
  }

  @Test
  void aCallThatOutlivesItsTimeoutFailsTyped() {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS);
    AciClientException e = failure(() -> c.withTimeout(Duration.ofMillis(200)).waitMs(3000));
    assertThat(e.reason()).isEqualTo(Reason.TIMEOUT);
    assertThat(c.click(AT).ok()).isTrue();
  }

  @Test
  void closeFailsWaitingCallsAndLaterCallsWithClosed() throws Exception {
    AciClient c = connect(runtime(TestRuntime.fullCapabilities()), OPTIONS);
    AciClientException[] waiting = new AciClientException[1];
    Thread t = new Thread(() -> waiting[0] = failure(() -> c.waitMs(5000)));
    t.start();
    Thread.sleep(200);
    c.close();
    t.join(5000);
    assertThat(waiting[0].reason()).isEqualTo(Reason.CLOSED);
    assertThat(c.isOpen()).isFalse();
    assertThat(failure(() -> c.click(AT)).reason()).isEqualTo(Reason.CLOSED);
    c.close();
  }

  @Test
  void serverPushedFramesThatNobodyAwaitsReachListeners() {
    TestRuntime r = runtime(TestRuntime.fullCapabilities());
    AciClient c = connect(r, OPTIONS);
    List<AciMessage> exec = new CopyOnWriteArrayList<>();
    List<String> errors = new CopyOnWriteArrayList<>();
    c.onExecEvent(exec::add);
    c.onSessionError(errors::add);
    r.pushRaw(WireCodec.encode(ExecOutputMsg.of("elsewhere", 0, Channel.STDOUT, new byte[] {1})));
    r.pushRaw("{\"type\":\"ack\",\"call_id\":\"x\",\"ok\":true,\"surprise\":1}");
    r.pushRaw("{\"type\":\"result\",\"call_id\":\"?\",\"ok\":false,\"error\":\"authenticated connection idle timeout\"}");
    awaitUntil(() -> exec.size() == 1 && errors.size() == 2);
    assertThat(errors.get(0)).contains("surprise");
    assertThat(errors.get(1)).isEqualTo("authenticated connection idle timeout");
    assertThat(c.click(AT).ok()).isTrue();
  }

  private static void awaitUntil(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 10 s");
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
