package dev.agentdesk.aci.client;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.AciClientException.Reason;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.BinaryFrame;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.ExecExitMsg;
import dev.agentdesk.aci.wire.ExecOutputMsg;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.Pong;
import dev.agentdesk.aci.wire.Result;
import dev.agentdesk.aci.wire.Welcome;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One WebSocket to a runtime: serialised sends, and a demux that routes every incoming frame —
 * replies to the call waiting on their call id, stream frames and exec events to their
 * listeners, session errors to the error listeners. Listener callbacks run on one event thread so
 * a slow listener never stalls the socket reader.
 */
final class Session implements WebSocket.Listener {
  private final Map<String, LinkedBlockingQueue<Object>> pending = new ConcurrentHashMap<>();
  private final Map<String, ExecStream> execStreams = new ConcurrentHashMap<>();
  private final LinkedBlockingQueue<Object> handshake = new LinkedBlockingQueue<>();
  private final List<Consumer<ObservationMsg>> observationListeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<AciMessage>> execListeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<String>> errorListeners = new CopyOnWriteArrayList<>();
  private final ExecutorService events = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "aci-client-events");
    t.setDaemon(true);
    return t;
  });
  private final StringBuilder textBuffer = new StringBuilder();
  private final ByteArrayOutputStream binaryBuffer = new ByteArrayOutputStream();
  private final boolean validateOutgoing;
  private final CompletableFuture<Void> closedFuture = new CompletableFuture<>();
  private volatile WebSocket socket;
  private volatile boolean welcomed;
  private volatile boolean binaryNegotiated;
  private volatile String closeReason;
  private volatile String lastSessionError;

  private final boolean wantsBinary;

  Session(boolean validateOutgoing, boolean wantsBinary) {
    this.validateOutgoing = validateOutgoing;
    this.wantsBinary = wantsBinary;
  }

  void open(URI uri, Duration timeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
    try {
      socket = http.newWebSocketBuilder().connectTimeout(timeout).buildAsync(uri, this)
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      shutdownEvents();
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new AciClientException(Reason.CONNECT_FAILED, "cannot open " + uri + ": " + describe(cause), cause);
    } catch (TimeoutException e) {
      shutdownEvents();
      throw new AciClientException(Reason.CONNECT_FAILED, "cannot open " + uri + " within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      shutdownEvents();
      throw new AciClientException(Reason.CONNECT_FAILED, "interrupted opening " + uri, e);
    }
  }

  private static String describe(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }

  // ---- sending -------------------------------------------------------------------------------

  /** Sends one message; refuses once the session is closed. */
  synchronized void send(AciMessage message, Duration timeout) {
    if (validateOutgoing) {
      try {
        WireContract.bundled().check(message);
      } catch (WireException e) {
        throw new AciClientException(Reason.PROTOCOL_VIOLATION, "refusing to send a message the contract rejects: "
            + e.getMessage(), e);
      }
    }
    ensureOpen();
    try {
      socket.sendText(WireCodec.encode(message), true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AciClientException(Reason.CLOSED, "send failed: " + describe(e.getCause()), e.getCause());
    } catch (TimeoutException e) {
      throw new AciClientException(Reason.TIMEOUT, "send did not complete within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AciClientException(Reason.CLOSED, "interrupted while sending", e);
    }
  }

  void ensureOpen() {
    if (closedFuture.isDone()) {
      throw closedError();
    }
  }

  AciClientException closedError() {
    String why = closeReason == null ? "session is closed" : closeReason;
    if (lastSessionError != null) {
      why += " (runtime said: " + lastSessionError + ")";
    }
    return new AciClientException(Reason.CLOSED, why);
  }

  // ---- calls ---------------------------------------------------------------------------------

  /** Registers a call before its request is sent, so no reply can arrive unclaimed. */
  LinkedBlockingQueue<Object> register(String callId) {
    LinkedBlockingQueue<Object> q = new LinkedBlockingQueue<>();
    if (pending.putIfAbsent(callId, q) != null) {
      throw new IllegalStateException("call id " + callId + " is already in flight");
    }
    return q;
  }

  void unregister(String callId) {
    pending.remove(callId);
  }

  ExecStream registerExec(String callId, Duration timeout) {
    ExecStream s = new ExecStream(callId, timeout);
    execStreams.put(callId, s);
    return s;
  }

  void unregisterExec(String callId) {
    execStreams.remove(callId);
  }

  /** The next reply of a call, or a typed timeout/closed error. */
  static AciMessage await(LinkedBlockingQueue<Object> replies, String what, Duration timeout) {
    Object r;
    try {
      r = replies.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AciClientException(Reason.CLOSED, "interrupted waiting for " + what, e);
    }
    if (r == null) {
      throw new AciClientException(Reason.TIMEOUT, "no reply to " + what + " within " + timeout);
    }
    if (r instanceof AciClientException e) {
      throw e;
    }
    return (AciMessage) r;
  }

  AciMessage awaitHandshake(Duration timeout) {
    return await(handshake, "hello", timeout);
  }

  /** Whether both sides agreed on binary frames (known once the welcome arrived). */
  boolean binaryNegotiated() {
    return binaryNegotiated;
  }

  void onObservation(Consumer<ObservationMsg> l) {
    observationListeners.add(l);
  }

  void removeObservationListener(Consumer<ObservationMsg> l) {
    observationListeners.remove(l);
  }

  void onExecEvent(Consumer<AciMessage> l) {
    execListeners.add(l);
  }

  void onSessionError(Consumer<String> l) {
    errorListeners.add(l);
  }

  // ---- receiving -----------------------------------------------------------------------------

  @Override
  public void onOpen(WebSocket webSocket) {
    webSocket.request(1);
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    textBuffer.append(data);
    if (last) {
      String text = textBuffer.toString();
      textBuffer.setLength(0);
      routeText(text);
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
    byte[] chunk = new byte[data.remaining()];
    data.get(chunk);
    binaryBuffer.writeBytes(chunk);
    if (last) {
      byte[] frame = binaryBuffer.toByteArray();
      binaryBuffer.reset();
      routeBinary(frame);
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    finish("session closed by the runtime (close code " + statusCode + (reason.isEmpty() ? "" : ", " + reason) + ")");
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    finish("session failed: " + describe(error));
  }

  private void routeText(String text) {
    AciMessage message;
    try {
      message = WireCodec.decode(text);
    } catch (WireException e) {
      undecodable(e, WireCodecPeek.callId(text));
      return;
    }
    route(message);
  }

  private void routeBinary(byte[] frame) {
    if (!binaryNegotiated) {
      sessionError("the runtime sent a binary frame on a text session (" + frame.length + " bytes); ignored");
      return;
    }
    BinaryFrame decoded;
    try {
      decoded = BinaryFrames.decode(frame);
    } catch (WireException e) {
      undecodable(e, null);
      return;
    }
    if (decoded instanceof BinaryFrame.Media media) {
      route(BinaryFrames.toObservation(media));
    } else {
      route(BinaryFrames.toExecOutput((BinaryFrame.ExecOutput) decoded));
    }
  }

  /** A frame that is not valid ACI: fail the call it names, if any, so nobody waits for nothing. */
  private void undecodable(WireException e, String callId) {
    String message = "the runtime sent a message that breaks the contract: " + e.getMessage();
    LinkedBlockingQueue<Object> q = callId == null ? null : pending.get(callId);
    if (q != null) {
      q.add(new AciClientException(Reason.PROTOCOL_VIOLATION, message, e));
    } else {
      sessionError(message);
    }
  }

  private void route(AciMessage m) {
    if (!welcomed) {
      // Switch to routing on the reader thread itself, so that nothing the runtime sends right
      // after its welcome can land in the handshake queue and be lost.
      if (m instanceof Welcome w) {
        binaryNegotiated = wantsBinary && w.capabilities().supportsBinaryFrames();
        welcomed = true;
      }
      handshake.add(m);
      return;
    }
    if (m instanceof Ack a) {
      deliver(a.callId(), m);
    } else if (m instanceof Result r) {
      if ("?".equals(r.callId()) || !pending.containsKey(r.callId())) {
        sessionError(r.error() == null ? "unsolicited result for " + r.callId() : r.error());
      } else {
        deliver(r.callId(), m);
      }
    } else if (m instanceof ObservationMsg o) {
      if (o.stream() == null && o.cause() != null && pending.containsKey(o.cause())) {
        deliver(o.cause(), m);
      } else {
        observationListeners.forEach(l -> events.execute(() -> l.accept(o)));
      }
    } else if (m instanceof ExecOutputMsg out) {
      ExecStream s = execStreams.get(out.cause());
      if (s != null) {
        try {
          s.deliver(new ExecEvent.Chunk(out.seq(), out.channel(), out.data()));
        } catch (WireException e) {
          s.fail(new AciClientException(Reason.PROTOCOL_VIOLATION, "exec output breaks the contract: "
              + e.getMessage(), e));
        }
      }
      execListeners.forEach(l -> events.execute(() -> l.accept(out)));
    } else if (m instanceof ExecExitMsg exit) {
      ExecStream s = execStreams.remove(exit.cause());
      if (s != null) {
        s.deliver(new ExecEvent.Exit(exit));
      }
      execListeners.forEach(l -> events.execute(() -> l.accept(exit)));
    } else if (m instanceof Pong p) {
      deliver(PONG_KEY, p);
    }
    // hello/welcome/ping/query/action from a runtime have no meaning to a client: dropped.
  }

  static final String PONG_KEY = "\u0000pong";

  private void deliver(String callId, AciMessage m) {
    LinkedBlockingQueue<Object> q = pending.get(callId);
    if (q != null) {
      q.add(m);
    }
  }

  private void sessionError(String message) {
    lastSessionError = message;
    errorListeners.forEach(l -> events.execute(() -> l.accept(message)));
  }

  /** Marks the session closed and fails everything still waiting. */
  private void finish(String reason) {
    if (closedFuture.isDone()) {
      return;
    }
    closeReason = reason;
    closedFuture.complete(null);
    AciClientException error = closedError();
    handshake.add(error);
    pending.values().forEach(q -> q.add(error));
    execStreams.values().forEach(s -> s.fail(error));
    execStreams.clear();
    shutdownEvents();
  }

  private void shutdownEvents() {
    events.shutdown();
  }

  boolean isOpen() {
    return !closedFuture.isDone();
  }

  /** Closes politely (close frame, bounded wait for the runtime's), then hard. Idempotent. */
  void close(Duration timeout) {
    WebSocket ws = socket;
    if (ws == null || closedFuture.isDone()) {
      finish("session closed by the client");
      return;
    }
    try {
      ws.sendClose(WebSocket.NORMAL_CLOSURE, "client closing").get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      closedFuture.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // The runtime did not answer the close; aborting below releases the socket anyway.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      ws.abort();
      finish("session closed by the client");
    }
  }
}
