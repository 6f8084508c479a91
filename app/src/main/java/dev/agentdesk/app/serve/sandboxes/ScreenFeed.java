package dev.agentdesk.app.serve.sandboxes;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.ScreenSize;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Tile;
import dev.agentdesk.app.serve.Json;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sandbox's live screen for every browser watching it: while at least one viewer is
 * connected the feed holds its own session with the runtime (apart from the act/observe session,
 * whose {@code stop_screencast} would end every stream of its connection) with one delta
 * screencast on it, and hands each frame to every viewer's {@link ViewerOutbox}. The picture so far
 * (last keyframe and the tiles since) is kept, merged, so a viewer that joins mid-stream starts
 * from it. When the session drops the feed says so and reconnects by itself; when the last viewer
 * leaves, the session is closed and with it the screencast.
 */
final class ScreenFeed {
  private static final Logger LOG = LoggerFactory.getLogger(ScreenFeed.class);
  /** Lossless frames, so what the canvas shows is what the display shows, pixel for pixel. */
  static final ObserveSpec LEVERS = new ObserveSpec(null, ImageFormat.PNG, null, null);
  static final double FPS = 10;
  /** How often the feed looks whether its session is still open and retries a lost runtime. */
  static final long WATCH_MS = 250;
  static final long RETRY_MS = 2_000;
  /** After a lossy frame, how long the screen stays still before the exact pieces follow. */
  static final long REFINE_MS = 300;

  /** What a viewer is told about the runtime, as {@code {"type":"state","state":…}}. */
  enum State {
    CONNECTING, LIVE, RECONNECTING, GONE, STOPPED;

    String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final String sandboxId;
  private final String url;
  private final Supplier<AciClient> connect;
  private final Set<ViewerOutbox> viewers = new CopyOnWriteArraySet<>();
  // Guarded by this.
  private final ScreenPatch picture = new ScreenPatch();
  private State state = State.STOPPED;
  private String detail;
  private ScreenSize screen;
  private AciClient client;
  private ScheduledExecutorService timer;
  private long nextAttempt;
  private boolean retried;
  private long sessionsOpened;
  /**
   * The runtime's own (lossless) pieces since the first lossy frame not yet made exact, merged
   * like any patch; null when lossy viewers are exact. Sent to them once the screen is still.
   */
  private ScreenPatch exactSince;
  /** The box around every jpeg since {@link #exactSince} began (x, y, w, h). */
  private int[] lossyBox;
  private long lastFrameNanos;
  private long lossyFrames;
  /** Bumped by every stop: work of an older session (a late frame, a slow connect) is ignored. */
  private int generation;

  ScreenFeed(String sandboxId, String url, Supplier<AciClient> connect) {
    this.sandboxId = sandboxId;
    this.url = url;
    this.connect = connect;
  }

  void join(ViewerOutbox v) {
    synchronized (this) {
      viewers.add(v);
      v.text(stateJson());
      if (!picture.isEmpty()) {
        v.frame(picture);
      }
      if (state == State.STOPPED) {
        state = State.CONNECTING;
        detail = null;
        nextAttempt = 0;
        int gen = ++generation;
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "screen-feed-" + sandboxId);
          t.setDaemon(true);
          return t;
        });
        timer.scheduleWithFixedDelay(() -> watch(gen), 0, WATCH_MS, TimeUnit.MILLISECONDS);
      }
    }
  }

  void leave(ViewerOutbox v) {
    v.close();
    synchronized (this) {
      if (viewers.remove(v) && viewers.isEmpty()) {
        stop();
      }
    }
  }

  /** Sends the whole picture again to one viewer (it asked: its canvas lost track). */
  synchronized void resend(ViewerOutbox v) {
    if (!picture.isEmpty()) {
      v.frame(picture);
    }
  }

  /** Ends the feed: the sandbox was removed or the server stops; viewers are told why. */
  void close(String reason) {
    synchronized (this) {
      stop();
    }
    for (ViewerOutbox v : viewers) {
      v.text(Json.write(Map.of("type", "state", "state", "removed", "message", reason)));
    }
    viewers.clear();
  }

  private void stop() {
    generation++;
    state = State.STOPPED;
    if (timer != null) {
      timer.shutdownNow();
      timer = null;
    }
    AciClient c = client;
    client = null;
    picture.clear();
    exactSince = null;
    lossyBox = null;
    if (c != null) {
      // Closing the session ends its screencast on the runtime; done off the caller's thread,
      // which may be a Jetty thread handling the last viewer's close.
      Thread t = new Thread(c::close, "screen-feed-close-" + sandboxId);
      t.setDaemon(true);
      t.start();
    }
  }

  /** On the feed's timer: notices a dropped session and (re)connects when due. */
  private void watch(int gen) {
    AciClient c;
    synchronized (this) {
      if (gen != generation) {
        return;
      }
      c = client;
      if (state == State.LIVE && c != null && !c.isOpen()) {
        client = null;
        state = State.RECONNECTING;
        detail = "the runtime at " + url + " closed the connection; reconnecting";
        nextAttempt = 0;
        retried = false;
        broadcastState();
      }
      if (exactSince != null && System.nanoTime() - lastFrameNanos >= REFINE_MS * 1_000_000) {
        refine();
      }
      if (state == State.LIVE || System.currentTimeMillis() < nextAttempt) {
        return;
      }
    }
    open(gen);
  }

  private void open(int gen) {
    AciClient c = null;
    try {
      c = connect.get();
      ScreenSize size = c.screenSize();
      AciClient session = c;
      c.onObservation(o -> onFrame(gen, o));
      synchronized (this) {
        if (gen != generation) {
          c.close();
          return;
        }
        client = session;
        screen = size;
        sessionsOpened++;
      }
      c.startScreencast(LEVERS, FPS, Boolean.TRUE, null);
      synchronized (this) {
        if (gen != generation) {
          return;
        }
        state = State.LIVE;
        detail = null;
        retried = false;
        broadcastState();
      }
    } catch (AciClientException e) {
      if (c != null) {
        c.close();
      }
      synchronized (this) {
        if (gen != generation) {
          return;
        }
        client = null;
        State was = state;
        // One quick retry after a drop (a runtime restarting); then the runtime is gone until it answers.
        boolean quickRetry = was == State.RECONNECTING && !retried;
        retried = true;
        state = quickRetry ? State.RECONNECTING : State.GONE;
        detail = e.reason() == AciClientException.Reason.NOT_ADVERTISED
            ? "the runtime at " + url + " offers no screencast (" + e.getMessage() + "); the live view needs"
                + " an ACI runtime with start_screencast, such as agentdesk runtime."
            : "the runtime at " + url + " does not answer (" + e.getMessage() + "). Start it again"
                + " (agentdesk runtime …) and this view reconnects by itself, or remove this sandbox.";
        nextAttempt = System.currentTimeMillis() + (quickRetry ? 500 : RETRY_MS);
        if (state != was) {
          broadcastState();
        }
        LOG.debug("sandbox {} screen: {}", sandboxId, e.getMessage());
      }
    }
  }

  /** On the feed session's reader thread, one frame at a time. */
  private void onFrame(int gen, ObservationMsg o) {
    if (o.stream() == null || o.seq() == null) {
      return;
    }
    ScreenPatch patch = new ScreenPatch();
    Base64.Decoder b64 = Base64.getDecoder();
    try {
      if (o.image() != null) {
        String format = o.image().format() == null ? "png" : o.image().format().wire();
        patch.keyframe(o.seq(), format, new ScreenPatch.Piece(0, 0, (int) o.image().w(), (int) o.image().h(),
            b64.decode(o.image().ref())));
      } else if (o.tiles() != null) {
        List<ScreenPatch.Piece> pieces = new ArrayList<>(o.tiles().size());
        for (Tile t : o.tiles()) {
          pieces.add(new ScreenPatch.Piece((int) t.x(), (int) t.y(), (int) t.w(), (int) t.h(), b64.decode(t.ref())));
        }
        patch.tiles(o.seq(), "png", pieces);
      } else {
        return;
      }
    } catch (IllegalArgumentException e) {
      LOG.warn("sandbox {} screen: a frame whose image is not base64 was dropped", sandboxId);
      return;
    }
    synchronized (this) {
      if (gen != generation) {
        return;
      }
      if (!patch.hasKeyframe() && !picture.hasKeyframe()) {
        return; // tiles of a picture nobody has: wait for the keyframe
      }
      picture.merge(patch);
      patch.size(picture.width(), picture.height());
      lastFrameNanos = System.nanoTime();
      ScreenPatch lossy = null;
      if (viewers.stream().anyMatch(v -> !v.lossless())) {
        try {
          lossy = LargeChanges.lossy(patch, picture, picture.width(), picture.height());
        } catch (RuntimeException e) {
          LOG.warn("sandbox {} screen: a large change could not be made lossy ({}); sent as png", sandboxId,
              e.toString());
        }
      }
      if (lossy != null) {
        lossyFrames++;
        lossyBox = LargeChanges.union(lossyBox, patch.bounds());
        if (exactSince == null) {
          exactSince = patch.copy();
        } else {
          exactSince.merge(patch);
        }
      } else if (exactSince != null) {
        exactSince.merge(patch); // drawn after the lossy pieces it may overlap, as it was live
      }
      for (ViewerOutbox v : viewers) {
        v.frame(lossy == null || v.lossless() ? patch : lossy);
      }
    }
  }

  /**
   * The screen is still after lossy frames: the lossy viewers get the runtime's own pieces of what
   * changed since, as a png viewer got them (not re-encoded), and png cells for the rest of the
   * jpeg's box. Holds this.
   */
  private void refine() {
    ScreenPatch exact = exactSince;
    exactSince = null;
    int[] box = lossyBox;
    lossyBox = null;
    try {
      // What the jpeg's box held without changing: the runtime never sends it again.
      exact.tiles(exact.seq(), exact.format(), LargeChanges.uncovered(picture, box, exact, picture.width(),
          picture.height()));
    } catch (RuntimeException e) {
      LOG.warn("sandbox {} screen: the exact refresh could not be completed ({}); sending the whole picture",
          sandboxId, e.toString());
      exact = picture.copy();
    }
    exact.size(picture.width(), picture.height());
    for (ViewerOutbox v : viewers) {
      if (!v.lossless()) {
        v.frame(exact);
      }
    }
  }

  /** Large changes sent as one jpeg so far (for tests and the benchmark). */
  synchronized long lossyFrames() {
    return lossyFrames;
  }

  private void broadcastState() {
    String json = stateJson();
    for (ViewerOutbox v : viewers) {
      v.text(json);
    }
  }

  private String stateJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", "state");
    m.put("state", state == State.STOPPED ? State.CONNECTING.wire() : state.wire());
    m.put("message", detail);
    m.put("screen", screen == null ? null : Map.of("w", screen.w(), "h", screen.h()));
    return Json.write(m);
  }

  synchronized int viewerCount() {
    return viewers.size();
  }

  /** Sessions with the runtime this feed opened so far (one per start or reconnect). */
  synchronized long sessionsOpened() {
    return sessionsOpened;
  }

  synchronized boolean streaming() {
    return client != null && client.isOpen();
  }

  synchronized State state() {
    return state;
  }
}
