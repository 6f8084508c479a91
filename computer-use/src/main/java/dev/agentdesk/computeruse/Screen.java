package dev.agentdesk.computeruse;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.ActionReply;
import dev.agentdesk.aci.client.ScreenSize;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.CoordinateRect;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.PointerPosition;
import dev.agentdesk.aci.wire.Scope;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import java.time.Duration;

/**
 * The runtime's screen as the model sees it: the declared display size, the coordinate space of the
 * last screenshot (schema {@code CoordinateSpace}: which screen rectangle the image shows), the
 * pointer, and screenshots scaled to the declared size. When the runtime can deliver exactly the
 * declared size (same aspect ratio as the screen), its base64 goes into the tool result untouched;
 * otherwise the image is resized here ({@link Images}).
 */
final class Screen {
  private final AciClient client;
  private final DisplaySize declared;
  private final Duration settle;
  private final boolean dedup;
  private final ObserveSpec levers;
  private long screenW;
  private long screenH;
  /** The screen rectangle the model's last image showed (global action pixels). */
  private CoordinateRect source;
  /** The last known pointer position, in global action pixels, or null. */
  private PointerPosition pointer;
  private String lastHash;
  private String lastImage;

  Screen(AciClient client, DisplaySize declared, Duration settle) {
    this.client = client;
    this.declared = declared;
    this.settle = settle;
    this.dedup = client.capabilities().supportsFrameDedup();
    ScreenSize size = client.screenSize();
    screenW = size.w();
    screenH = size.h();
    source = new CoordinateRect(0, 0, screenW, screenH);
    levers = new ObserveSpec(Scope.SCREEN, ImageFormat.PNG, null, longEdgeFor(declared, screenW, screenH));
  }

  /**
   * The smallest long-edge cap whose delivered image covers the declared size on both axes (so a
   * resize, if one is needed at all, only ever shrinks), or null for the full resolution.
   */
  static Integer longEdgeFor(DisplaySize d, long w, long h) {
    long longEdge = Math.max(w, h);
    double f = Math.max((double) d.width() / w, (double) d.height() / h);
    long cap = (long) Math.ceil(f * longEdge - 1e-9);
    return cap >= longEdge ? null : (int) cap;
  }

  DisplaySize declared() {
    return declared;
  }

  /** A model coordinate (declared display pixels) as a global action-pixel target. */
  Target toScreen(double x, double y) {
    double sx = source.x() + (x + 0.5) * source.w() / declared.width() - 0.5;
    double sy = source.y() + (y + 0.5) * source.h() / declared.height() - 0.5;
    return new Target.PointPx(clamp(Math.round(sx), screenW), clamp(Math.round(sy), screenH));
  }

  /** A global action-pixel point in model coordinates. */
  long[] fromScreen(long x, long y) {
    double mx = (x - source.x() + 0.5) * declared.width() / source.w() - 0.5;
    double my = (y - source.y() + 0.5) * declared.height() / source.h() - 0.5;
    return new long[] {clamp(Math.round(mx), declared.width()), clamp(Math.round(my), declared.height())};
  }

  private static long clamp(long v, long size) {
    return Math.max(0, Math.min(size - 1, v));
  }

  /** The pointer in global action pixels, asking the runtime when no observation has said. */
  PointerPosition pointer() {
    if (pointer == null) {
      screenshot();
    }
    if (pointer == null) {
      throw new ToolCallException(ToolCallException.Reason.NOT_EXPRESSIBLE,
          "the runtime reports no pointer position in its observations");
    }
    return pointer;
  }

  /** Refreshes the pointer (a cheap not_modified round trip when the screen is unchanged). */
  PointerPosition freshPointer() {
    screenshot();
    return pointer();
  }

  /** Runs a mutating action; returns the screenshot after it (base64 png) or null when not wanted. */
  String act(Action a, boolean screenshotAfter) {
    if (!screenshotAfter) {
      client.act(a);
      pointer = null;
      return null;
    }
    if (settle.isZero()) {
      ActionReply reply = client.act(withObserve(a));
      ObservationMsg follow = ((ActionReply.Acked) reply).followUp();
      return image(follow);
    }
    client.act(a);
    sleep(settle);
    return screenshot();
  }

  /** Runs actions one after another; only the last one's screenshot is taken. */
  String actAll(java.util.List<Action> actions, boolean screenshotAfter) {
    for (int i = 0; i < actions.size() - 1; i++) {
      client.act(actions.get(i));
    }
    return act(actions.get(actions.size() - 1), screenshotAfter);
  }

  /** A screenshot at the declared size, base64 png. */
  String screenshot() {
    Action a = Action.builder(Verb.SCREENSHOT).scope(levers.scope()).format(levers.format())
        .maxLongEdge(levers.maxLongEdge()).ifNoneMatch(dedup ? lastHash : null).build();
    ObservationMsg o = ((ActionReply.Observed) client.act(a)).observation();
    return image(o);
  }

  /** Waits on the runtime (so a recording keeps the pause), then a screenshot when wanted. */
  String waitThen(long ms, boolean screenshotAfter) {
    client.act(Action.waitMs(ms));
    return screenshotAfter ? screenshot() : null;
  }

  /**
   * The screen rectangle {@code [x0, y0, x1, y1]} (model coordinates, corners inclusive) at the
   * screen's own resolution, shrunk to fit the declared display when it is larger.
   */
  String zoom(long x0, long y0, long x1, long y1) {
    // Edges, not pixel centres: model pixels x0..x1 cover screen pixels [left, right).
    double fx = (double) source.w() / declared.width();
    double fy = (double) source.h() / declared.height();
    int left = (int) Math.floor(source.x() + x0 * fx);
    int top = (int) Math.floor(source.y() + y0 * fy);
    int right = (int) Math.ceil(source.x() + (x1 + 1) * fx);
    int bottom = (int) Math.ceil(source.y() + (y1 + 1) * fy);
    Action full = Action.builder(Verb.SCREENSHOT).scope(Scope.SCREEN).format(ImageFormat.PNG).build();
    ObservationMsg o = ((ActionReply.Observed) client.act(full)).observation();
    note(o);
    return Images.crop(o.image().ref(), left, top, right - left, bottom - top, declared);
  }

  private Action withObserve(Action a) {
    return a.toBuilder().observe(levers).build();
  }

  private String image(ObservationMsg o) {
    note(o);
    if (o.isNotModified() && o.frameHash().equals(lastHash) && lastImage != null) {
      return lastImage;
    }
    if (o.image() == null) {
      throw new IllegalStateException("observation " + o.obsId() + " carries no image");
    }
    String b64 = o.image().w() == declared.width() && o.image().h() == declared.height() ? o.image().ref()
        : Images.resize(o.image().ref(), declared);
    lastHash = o.frameHash();
    lastImage = b64;
    return b64;
  }

  private void note(ObservationMsg o) {
    if (o.pointer() != null) {
      pointer = o.pointer();
    }
    if (o.display() != null) {
      screenW = o.display().w();
      screenH = o.display().h();
      if (o.image() != null || o.isNotModified()) {
        source = o.display().sourceRect();
      }
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the screen to settle", e);
    }
  }
}
