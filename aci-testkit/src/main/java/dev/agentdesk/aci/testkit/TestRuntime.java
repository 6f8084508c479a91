package dev.agentdesk.aci.testkit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ActionMsg;
import dev.agentdesk.aci.wire.Bbox;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.Capabilities;
import dev.agentdesk.aci.wire.Channel;
import dev.agentdesk.aci.wire.Element;
import dev.agentdesk.aci.wire.ExecExitMsg;
import dev.agentdesk.aci.wire.ExecOutputMsg;
import dev.agentdesk.aci.wire.ExecResult;
import dev.agentdesk.aci.wire.Hello;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationImage;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObservationType;
import dev.agentdesk.aci.wire.Ping;
import dev.agentdesk.aci.wire.Platform;
import dev.agentdesk.aci.wire.PointerPosition;
import dev.agentdesk.aci.wire.Pong;
import dev.agentdesk.aci.wire.Query;
import dev.agentdesk.aci.wire.Result;
import dev.agentdesk.aci.wire.ServerInfo;
import dev.agentdesk.aci.wire.TargetKind;
import dev.agentdesk.aci.wire.TreeForm;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.Welcome;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import io.javalin.Javalin;
import io.javalin.websocket.WsContext;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;

/**
 * An in-process ACI v0 runtime for SDK tests, speaking the real protocol over a real WebSocket
 * (Javalin/Jetty): hello/welcome with token check, queries, acks, observe-after-act, screenshots
 * as real PNGs with frame hashes and not_modified, real child processes for exec (buffered and
 * streamed), screencast pushes, binary frames when negotiated. Every message it sends is checked
 * against the bundled schema, so a test also proves the server side of each exchange is valid.
 * It records what it received, so tests can assert what the client put on the wire.
 */
public final class TestRuntime implements AutoCloseable {
  public static final String TOKEN = "test-token";
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final Javalin app;
  private final Welcome welcome;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final List<Action> actions = new CopyOnWriteArrayList<>();
  private final Map<String, Conn> conns = new ConcurrentHashMap<>();
  private volatile Color screen = Color.BLUE;
  private volatile String clipboard;
  private final AtomicLong captures = new AtomicLong();

  /** Per-connection state; sends are serialised because Jetty allows one write at a time. */
  private static final AtomicLong binarySent = new AtomicLong();

  /** Binary frames sent by every test runtime of this JVM so far. */
  public static long binarySent() {
    return binarySent.get();
  }

  private static final class Conn {
    final WsContext ctx;
    volatile boolean authed;
    volatile boolean binary;

    Conn(WsContext ctx) {
      this.ctx = ctx;
    }

    synchronized void send(AciMessage m) {
      WireContract.bundled().check(m);
      ctx.send(WireCodec.encode(m));
    }

    synchronized void sendBinary(byte[] frame) {
      binarySent.incrementAndGet();
      ctx.send(ByteBuffer.wrap(frame));
    }
  }

  public static Capabilities fullCapabilities() {
    return new Capabilities(List.of(Verb.values()), List.of(TargetKind.values()),
        List.of(ObservationType.SCREENSHOT, ObservationType.SCREENCAST, ObservationType.A11Y), 2576,
        List.of(ImageFormat.PNG, ImageFormat.JPEG), true, true, true, true);
  }

  public TestRuntime(Capabilities capabilities) {
    this.welcome = new Welcome(new ServerInfo("test-runtime", "0.0.1", Platform.LINUX), capabilities);
    this.app = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.startup.showOldJavalinVersionWarning = false;
      cfg.routes.ws("/", ws -> {
        ws.onConnect(ctx -> conns.put(ctx.sessionId(), new Conn(ctx)));
        ws.onClose(ctx -> conns.remove(ctx.sessionId()));
        ws.onMessage(ctx -> handle(conns.get(ctx.sessionId()), ctx.message()));
      });
    });
    app.start("127.0.0.1", 0);
  }

  public URI uri() {
    return URI.create("ws://127.0.0.1:" + app.port() + "/");
  }

  public List<String> received() {
    return received;
  }

  public List<Action> actions() {
    return actions;
  }

  public void paint(Color color) {
    screen = color;
  }

  public long captures() {
    return captures.get();
  }

  /** Sends a raw text frame to every authenticated client (to test the client's demux). */
  public void pushRaw(String text) {
    conns.values().stream().filter(c -> c.authed).forEach(c -> {
      synchronized (c) {
        c.ctx.send(text);
      }
    });
  }

  private void handle(Conn c, String text) {
    received.add(text);
    AciMessage m;
    try {
      m = WireCodec.decode(text);
    } catch (WireException e) {
      c.send(Result.error("?", "bad message: " + e.getMessage()));
      c.ctx.closeSession();
      return;
    }
    if (!c.authed) {
      if (!(m instanceof Hello h)) {
        c.send(Result.error("?", "handshake required: the first message must be `hello`"));
        c.ctx.closeSession();
      } else if (!TOKEN.equals(h.token())) {
        c.send(Result.error("?", "authentication required: missing or invalid token"));
        c.ctx.closeSession();
      } else {
        c.authed = true;
        c.binary = h.accept() != null && h.accept().wantsBinaryFrames() && welcome.capabilities().supportsBinaryFrames();
        c.send(welcome);
      }
      return;
    }
    if (m instanceof Ping p) {
      c.send(new Pong(p.t()));
    } else if (m instanceof Query q) {
      c.send(query(q));
    } else if (m instanceof ActionMsg a) {
      actions.add(a.action());
      // Long-running verbs must not hold the socket's reader.
      daemon(() -> act(c, a.callId(), a.action()));
    }
  }

  private Result query(Query q) {
    return switch (q.q()) {
      case PLATFORM -> Result.ok(q.callId(), F.textNode("linux"));
      case SCREEN_SIZE -> Result.ok(q.callId(), F.objectNode().put("w", 320).put("h", 200));
      case READY -> Result.ok(q.callId(), F.objectNode().put("ready", true).put("x11_up", false));
      case LIST_WINDOWS -> {
        var arr = F.arrayNode();
        arr.addObject().put("id", 0x1c00007).put("title", "Terminal").put("pid", 42).put("x", 0).put("y", 0)
            .put("w", 200).put("h", 100).put("focused", true);
        arr.addObject().put("id", 77).put("title", "xclock").put("x", 210).put("y", 0).put("w", 100)
            .put("h", 100).put("focused", false);
        yield Result.ok(q.callId(), arr);
      }
    };
  }

  private void act(Conn c, String id, Action a) {
    try {
      switch (a.verb()) {
        case SCREENSHOT -> screenshot(c, id, a);
        case OBSERVE -> c.send(ObservationMsg.builder("obs-" + id).cause(id).tree(TreeForm.FULL)
            .treeText("app test\n1 e1 push_button \"OK\"\nfocus: e1").revision(1L).focus("e1").nodeCount(1L)
            .elements(List.of(Element.of("e1", "push_button", new Bbox(10, 10, 80, 24)))).build());
        case EXEC -> exec(c, id, a);
        case CLIPBOARD_GET -> {
          if (clipboard == null) {
            c.send(Ack.nack(id, "clipboard is empty (nothing set this session)"));
          } else {
            c.send(Result.ok(id, F.objectNode().put("text", clipboard)));
          }
        }
        case CLIPBOARD_SET -> {
          clipboard = a.text();
          ackThenObserve(c, id, a);
        }
        case LAUNCH_APP -> {
          if (a.app().equals("nope")) {
            c.send(Ack.nack(id, "launch_app: failed to spawn \"nope\""));
          } else {
            ackThenObserve(c, id, a);
          }
        }
        case WAIT -> {
          Thread.sleep(Math.min(a.ms() == null ? 0 : a.ms(), 10_000));
          c.send(Ack.ok(id));
        }
        case START_SCREENCAST -> {
          c.send(Ack.ok(id));
          for (long seq = 0; seq < 3; seq++) {
            ObservationMsg frame = ObservationMsg.builder(id + "-" + seq).stream(id).seq(seq)
                .image(image(null)).build();
            deliver(c, frame);
          }
        }
        default -> ackThenObserve(c, id, a);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | IOException e) {
      c.send(Ack.nack(id, "test runtime failed: " + e));
    }
  }

  private void ackThenObserve(Conn c, String id, Action a) throws IOException {
    c.send(Ack.ok(id));
    if (a.observe() != null) {
      deliver(c, ObservationMsg.builder("obs-" + id).cause(id).image(image(a.observe().scope())).build());
    }
  }

  private void deliver(Conn c, ObservationMsg o) {
    if (c.binary && o.image() != null) {
      c.sendBinary(BinaryFrames.encode(BinaryFrames.fromObservation(o)));
    } else {
      c.send(o);
    }
  }

  private byte[] pixels() {
    return (screen.getRGB() + "").getBytes(StandardCharsets.UTF_8);
  }

  private ObservationImage image(dev.agentdesk.aci.wire.Scope scope) throws IOException {
    captures.incrementAndGet();
    BufferedImage img = new BufferedImage(32, 20, BufferedImage.TYPE_INT_RGB);
    var g = img.createGraphics();
    g.setColor(screen);
    g.fillRect(0, 0, 32, 20);
    g.dispose();
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(img, "png", png);
    return new ObservationImage(Base64.getEncoder().encodeToString(png.toByteArray()), 32, 20, scope,
        ImageFormat.PNG);
  }

  private void screenshot(Conn c, String id, Action a) throws IOException {
    String hash;
    try {
      hash = HexFormat.of().formatHex(Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(pixels()), 16));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    if (hash.equals(a.ifNoneMatch())) {
      c.send(ObservationMsg.builder("obs-" + id).cause(id).notModified(true).frameHash(hash)
          .pointer(new PointerPosition(5, 6)).build());
      return;
    }
    deliver(c, ObservationMsg.builder("obs-" + id).cause(id).image(image(a.scope())).frameHash(hash)
        .pointer(new PointerPosition(5, 6)).build());
  }

  private void exec(Conn c, String id, Action a) throws IOException, InterruptedException {
    List<String> cmd = a.argv() != null ? a.argv() : List.of("/bin/sh", "-c", a.shell());
    long start = System.nanoTime();
    Process p;
    try {
      p = new ProcessBuilder(new ArrayList<>(cmd)).start();
    } catch (IOException e) {
      if (Boolean.TRUE.equals(a.stream())) {
        c.send(Ack.ok(id));
        c.send(new ExecExitMsg(id, null, null, false, 0, false, "exec_spawn_failed: " + e.getMessage()));
      } else {
        c.send(Result.error(id, "exec_spawn_failed: " + e.getMessage()));
      }
      return;
    }
    if (a.stdin() != null) {
      p.getOutputStream().write(a.stdin().getBytes(StandardCharsets.UTF_8));
    }
    p.getOutputStream().close();
    if (!Boolean.TRUE.equals(a.stream())) {
      byte[] out = p.getInputStream().readAllBytes();
      byte[] err = p.getErrorStream().readAllBytes();
      boolean done = p.waitFor(a.timeoutMs() == null ? 60_000 : a.timeoutMs(), TimeUnit.MILLISECONDS);
      if (!done) {
        p.destroyForcibly().waitFor();
      }
      ExecResult r = new ExecResult(done ? (long) p.exitValue() : null, done ? null : 9L, !done,
          new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8), false, false,
          (System.nanoTime() - start) / 1e6);
      c.send(Result.ok(id, WireCodec.toJson(r)));
      return;
    }
    c.send(Ack.ok(id));
    AtomicLong seq = new AtomicLong();
    Thread err = daemon(() -> pump(c, id, p.getErrorStream(), Channel.STDERR, seq));
    pump(c, id, p.getInputStream(), Channel.STDOUT, seq);
    err.join();
    int code = p.waitFor();
    c.send(new ExecExitMsg(id, (long) code, null, false, (System.nanoTime() - start) / 1e6, false, null));
  }

  private void pump(Conn c, String id, InputStream in, Channel channel, AtomicLong seq) {
    byte[] buf = new byte[4096];
    try {
      int n;
      while ((n = in.read(buf)) > 0) {
        ExecOutputMsg chunk;
        synchronized (seq) {
          chunk = ExecOutputMsg.of(id, seq.getAndIncrement(), channel, Arrays.copyOf(buf, n));
          if (c.binary) {
            c.sendBinary(BinaryFrames.encode(BinaryFrames.fromExecOutput(chunk)));
          } else {
            c.send(chunk);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "test-runtime-worker");
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Override
  public void close() {
    app.stop();
  }

  static ObjectNode json(String text) {
    return (ObjectNode) WireCodec.parse(text);
  }
}
