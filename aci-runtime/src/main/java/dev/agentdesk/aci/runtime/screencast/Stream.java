package dev.agentdesk.aci.runtime.screencast;

import dev.agentdesk.aci.runtime.image.JpegEncoder;
import dev.agentdesk.aci.runtime.image.PngEncoder;
import dev.agentdesk.aci.runtime.image.RgbImage;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationImage;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.Tile;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running screencast. Each tick captures a frame; a frame whose raw-pixel hash equals the last
 * delivered one is not sent (idle suppression). Frames are built against the last <em>delivered</em>
 * frame and parked in a single pending slot that a sender drains. The sender hands a frame to the
 * transport only when the previous one has been written to the socket (the transport's completion
 * callback), so at most one frame is in flight and one parked: when the connection is slower than
 * the stream — or the client stops reading — a newer frame replaces the parked one and the seq it
 * would have had shows the client a gap. A frame the connection refuses (too many unwritten bytes)
 * is dropped the same way and the next tick builds a fresh one against what the client really has.
 */
final class Stream {
  /** In delta mode a full keyframe follows every this many delivered delta frames. */
  static final int KEYFRAME_PERIOD = 30;
  private static final Logger LOG = LoggerFactory.getLogger(Stream.class);

  private final String id;
  private final StreamSettings settings;
  private final FrameSource source;
  private final FrameSink deliver;
  private final Executor sender;
  private final PngEncoder png = new PngEncoder();
  private final JpegEncoder jpeg = new JpegEncoder();
  /** Held while a frame is handed to the transport, so stop() returns only once none is in flight. */
  private final Object sendLock = new Object();

  // guarded by this
  private long nextSeq;
  private RgbImage lastDelivered;
  private String lastDeliveredHash;
  private int deltasSinceKey;
  private Pending pending;
  /** A drain is scheduled or a frame is in flight: the next drain starts from the write callback. */
  private boolean sending;
  private volatile boolean stopped;
  private long dropped;
  private long delivered;

  /** A built frame waiting for the sender, with the pixels it brings the client to. */
  private record Pending(ObservationMsg msg, RgbImage image, String hash, boolean key) {}

  Stream(String id, StreamSettings settings, FrameSource source, FrameSink deliver, Executor sender) {
    this(id, 0, settings, source, deliver, sender);
  }

  /** @param firstSeq where seq starts: 0, or where a resumed stream left off */
  Stream(String id, long firstSeq, StreamSettings settings, FrameSource source, FrameSink deliver,
      Executor sender) {
    this.nextSeq = firstSeq;
    this.id = id;
    this.settings = settings;
    this.source = source;
    this.deliver = deliver;
    this.sender = sender;
  }

  String id() {
    return id;
  }

  StreamSettings settings() {
    return settings;
  }

  /** One capture; called by one scheduler thread only, never concurrently with itself. */
  void tick() {
    if (stopped) {
      return;
    }
    RgbImage image;
    try {
      image = source.capture(settings.scope(), settings.maxLongEdge());
    } catch (RuntimeException e) {
      LOG.debug("screencast {} capture failed: {}", id, e.toString());
      return; // a window scope may be gone for a moment; the next tick tries again
    }
    String hash = image.frameHash();
    boolean start;
    synchronized (this) {
      if (stopped) {
        return;
      }
      if (pending == null || !hash.equals(pending.hash())) {
        if (hash.equals(lastDeliveredHash)) {
          if (pending != null) {
            pending = null; // the screen went back to what the client already has: nothing to send
            dropped++;
          }
          return;
        }
        if (pending != null) {
          dropped++;
        }
        pending = build(image, hash);
      }
      // a frame is parked: start the sender unless it runs or waits for a write (a refused frame retries here)
      start = !sending;
      sending = true;
    }
    if (start) {
      sender.execute(this::drain);
    }
  }

  private Pending build(RgbImage image, String hash) {
    long seq = nextSeq++;
    ObservationMsg.Builder b = ObservationMsg.builder(id + "-" + seq).stream(id).seq(seq);
    boolean key = !settings.delta() || lastDelivered == null || lastDelivered.width() != image.width()
        || lastDelivered.height() != image.height() || deltasSinceKey >= KEYFRAME_PERIOD - 1;
    if (key) {
      b.image(new ObservationImage(encode(image), image.width(), image.height(), settings.scope(),
          settings.format()));
    } else {
      List<Tile> tiles = new ArrayList<>();
      for (TileDiff.Region r : TileDiff.changed(lastDelivered, image)) {
        tiles.add(new Tile(r.x(), r.y(), r.w(), r.h(), encode(TileDiff.crop(image, r))));
      }
      if (tiles.isEmpty()) {
        // equal pixels under a different hash cannot happen (the hash is of the pixels); send a keyframe anyway
        b.image(new ObservationImage(encode(image), image.width(), image.height(), settings.scope(),
            settings.format()));
        key = true;
      } else {
        b.tiles(tiles);
      }
    }
    return new Pending(b.build(), image, hash, key);
  }

  private String encode(RgbImage image) {
    byte[] bytes = settings.format() == ImageFormat.JPEG ? jpeg.encode(image, settings.quality()) : png.encode(image);
    return Base64.getEncoder().encodeToString(bytes);
  }

  /**
   * Hands the parked frame, if any, to the transport; runs on the sender executor. An accepted
   * frame's write callback schedules the next drain, so a frame is never handed over while the
   * previous one is unwritten.
   */
  private void drain() {
    synchronized (sendLock) {
      // One lock around take-offer-record: a tick must never build a delta against pixels that
      // are about to be (or fail to be) handed over. offer() only queues, it does not block.
      synchronized (this) {
        Pending p = pending;
        pending = null;
        if (p == null || stopped) {
          sending = false;
          return;
        }
        boolean accepted;
        try {
          accepted = deliver.offer(p.msg(), this::written);
        } catch (RuntimeException e) {
          LOG.debug("screencast {} send failed: {}", id, e.toString());
          accepted = false;
        }
        if (accepted) {
          // handed to the transport: the next frame is built against these pixels
          lastDelivered = p.image();
          lastDeliveredHash = p.hash();
          deltasSinceKey = p.key() ? 0 : deltasSinceKey + 1;
          delivered++;
        } else {
          pending = p; // refused (the connection is full): parked again, the next tick retries
          sending = false;
        }
      }
    }
  }

  private void written() {
    try {
      sender.execute(this::drain);
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      // the connection is closing and this stream never sends again; no lock here, because the
      // transport may run this callback while holding its own lock
    }
  }

  /** Ends the stream; once this returns no further frame of it reaches the transport. */
  void stop() {
    stopped = true;
    synchronized (sendLock) {
      synchronized (this) {
        pending = null;
      }
    }
  }

  /** The seq the next frame would get; after stop() it is what a resume continues from. */
  synchronized long nextSeq() {
    return nextSeq;
  }

  /** Frames built but replaced or refused before they were sent (their seqs are the gaps the client sees). */
  synchronized long dropped() {
    return dropped;
  }

  /** Frames handed to the transport. */
  synchronized long delivered() {
    return delivered;
  }
}
