package dev.agentdesk.aci.runtime.screencast;

import dev.agentdesk.aci.runtime.image.JpegEncoder;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.Scope;

/**
 * One stream's parameters, resolved from a {@code start_screencast} action with the runtime's
 * defaults: 5 fps (clamped into 0.1–30), the whole screen, png, the screenshot long-edge cap.
 */
record StreamSettings(double fps, Scope scope, int maxLongEdge, ImageFormat format, int quality, boolean delta) {
  static final double DEFAULT_FPS = 5;
  static final double MIN_FPS = 0.1;
  static final double MAX_FPS = 30;

  static StreamSettings of(Action a, int longEdgeCap) {
    double fps = a.fps() == null ? DEFAULT_FPS : clampFps(a.fps());
    Scope scope = a.scope() == null ? Scope.SCREEN : a.scope();
    int edge = a.maxLongEdge() == null ? longEdgeCap : (int) Math.min(a.maxLongEdge(), longEdgeCap);
    ImageFormat format = a.format() == null ? ImageFormat.PNG : a.format();
    int quality = a.quality() == null ? JpegEncoder.DEFAULT_QUALITY : a.quality().intValue();
    return new StreamSettings(fps, scope, edge, format, quality, Boolean.TRUE.equals(a.delta()));
  }

  /** The reference clamps rather than rejects; NaN (never valid JSON) falls to the default. */
  static double clampFps(double fps) {
    if (Double.isNaN(fps)) {
      return DEFAULT_FPS;
    }
    return Math.max(MIN_FPS, Math.min(MAX_FPS, fps));
  }

  long periodMicros() {
    return Math.round(1_000_000 / fps);
  }
}
