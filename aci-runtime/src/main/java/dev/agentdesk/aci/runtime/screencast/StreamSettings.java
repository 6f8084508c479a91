package dev.agentdesk.aci.runtime.screencast;

import dev.agentdesk.aci.runtime.image.JpegEncoder;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.Scope;

/**
 * One stream's parameters, resolved from a {@code start_screencast} action with the runtime's
 * defaults: 5 fps, the whole screen, png, the screenshot long-edge cap. The decoder has already
 * refused an fps outside 0.1–30, as the schema says (the reference runtime clamps instead).
 */
record StreamSettings(double fps, Scope scope, int maxLongEdge, ImageFormat format, int quality, boolean delta) {
  static final double DEFAULT_FPS = 5;

  static StreamSettings of(Action a, int longEdgeCap) {
    double fps = a.fps() == null ? DEFAULT_FPS : a.fps();
    Scope scope = a.scope() == null ? Scope.SCREEN : a.scope();
    int edge = a.maxLongEdge() == null ? longEdgeCap : (int) Math.min(a.maxLongEdge(), longEdgeCap);
    ImageFormat format = a.format() == null ? ImageFormat.PNG : a.format();
    int quality = a.quality() == null ? JpegEncoder.DEFAULT_QUALITY : a.quality().intValue();
    return new StreamSettings(fps, scope, edge, format, quality, Boolean.TRUE.equals(a.delta()));
  }

  long periodMicros() {
    return Math.round(1_000_000 / fps);
  }
}
