package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.Desktop;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.image.Downscale;
import dev.agentdesk.aci.runtime.image.JpegEncoder;
import dev.agentdesk.aci.runtime.image.PngEncoder;
import dev.agentdesk.aci.runtime.image.RgbImage;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.CoordinateRect;
import dev.agentdesk.aci.wire.CoordinateSize;
import dev.agentdesk.aci.wire.CoordinateSpace;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationImage;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.PointerPosition;
import dev.agentdesk.aci.wire.Scope;
import java.util.Base64;

/**
 * The {@code screenshot} verb: scope, capture, downscale, hash, then either the compact
 * {@code not_modified} reply or an encoded image. The hash is taken before encoding so a match
 * costs a capture and a hash, never an encode.
 */
final class Screenshots {
  private final Desktop desktop;
  private final PngEncoder png = new PngEncoder();
  private final JpegEncoder jpeg = new JpegEncoder();

  Screenshots(Desktop desktop) {
    this.desktop = desktop;
  }

  /** What was captured, before encoding. */
  record Frame(Scope scope, Rect source, Rect screen, RgbImage image) {}

  Frame capture(Scope scope, Integer maxLongEdge) {
    Scope s = scope == null ? Scope.SCREEN : scope;
    Rect screen = desktop.capture().screen();
    Rect region = switch (s.kind()) {
      case SCREEN -> screen;
      case ACTIVE_WINDOW -> desktop.windows().active()
          .flatMap(id -> desktop.windows().geometry(id))
          .map(r -> r.intersect(screen))
          .orElse(screen);
      case WINDOW -> window(s, screen);
    };
    if (region == null) {
      region = screen; // the active window lies off-screen: fall back to the screen, as with none
    }
    int edge = maxLongEdge == null ? SessionLimits.MAX_LONG_EDGE : Math.min(maxLongEdge, SessionLimits.MAX_LONG_EDGE);
    RgbImage raw = desktop.capture().capture(region);
    return new Frame(s, region, screen, Downscale.toLongEdge(raw, edge));
  }

  private Rect window(Scope s, Rect screen) {
    long id = Targets.windowIdOf(s.wire());
    if (id < 0) {
      throw AciRuntimeException.badRequest("invalid capture scope: " + s.wire());
    }
    Rect bounds = desktop.windows().geometry(id).orElseThrow(() -> new AciRuntimeException(
        AciRuntimeException.Reason.NOT_FOUND, String.format("capture failed: window 0x%x not found", id)));
    Rect visible = bounds.intersect(screen);
    if (visible == null) {
      throw new AciRuntimeException(AciRuntimeException.Reason.NOT_FOUND,
          String.format("capture failed: window 0x%x is entirely off-screen", id));
    }
    return visible;
  }

  ObservationMsg answer(String callId, Action a) {
    return observation(callId, a.scope(), a.maxLongEdge(), a.format(), a.quality(), a.ifNoneMatch());
  }

  /** The follow-up observation of an observe-after-act: the same capture levers, never not_modified. */
  ObservationMsg observe(String callId, ObserveSpec spec) {
    return observation(callId, spec.scope(), spec.maxLongEdge(), spec.format(), spec.quality(), null);
  }

  private ObservationMsg observation(String callId, Scope scope, Integer maxLongEdge, ImageFormat requested,
      Integer requestedQuality, String ifNoneMatch) {
    Frame f = capture(scope, maxLongEdge);
    String hash = f.image().frameHash();
    ObservationMsg.Builder b = ObservationMsg.builder("obs-" + callId)
        .cause(callId)
        .frameHash(hash)
        .pointer(pointer())
        .display(space(f));
    if (hash.equals(ifNoneMatch)) {
      return b.notModified(true).build();
    }
    ImageFormat format = requested == null ? ImageFormat.PNG : requested;
    int quality = format == ImageFormat.JPEG && requestedQuality != null ? requestedQuality
        : JpegEncoder.DEFAULT_QUALITY;
    String key = hash + "/" + format.wire() + "/" + (format == ImageFormat.JPEG ? quality : 0);
    Encoded cached = last;
    String ref;
    if (cached != null && cached.key.equals(key)) {
      ref = cached.base64; // the same pixels in the same codec: the bytes would be identical
    } else {
      byte[] bytes = format == ImageFormat.JPEG ? jpeg.encode(f.image(), quality) : png.encode(f.image());
      ref = Base64.getEncoder().encodeToString(bytes);
      last = new Encoded(key, ref);
    }
    return b.image(new ObservationImage(ref, f.image().width(), f.image().height(), f.scope(), format)).build();
  }

  /**
   * The session's last encoded frame, keyed by frame hash, codec and quality: an agent that looks
   * again at an unchanged screen without if_none_match gets the same bytes without a second encode.
   */
  private record Encoded(String key, String base64) {}

  private volatile Encoded last;

  private PointerPosition pointer() {
    int[] p = desktop.input().pointer();
    return new PointerPosition(p[0], p[1]);
  }

  static CoordinateSpace space(Frame f) {
    return new CoordinateSpace(f.screen().w(), f.screen().h(), 1.0,
        new CoordinateRect(f.source().x(), f.source().y(), f.source().w(), f.source().h()),
        new CoordinateSize(f.image().width(), f.image().height()));
  }
}
