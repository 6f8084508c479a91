package dev.agentdesk.aci.runtime.screencast;

import dev.agentdesk.aci.runtime.image.RgbImage;
import dev.agentdesk.aci.wire.Scope;

/**
 * Where stream frames come from: the session's own screenshot capture (scope resolution and
 * downscale included), so a stream frame and a screenshot of the same screen are the same pixels.
 */
@FunctionalInterface
public interface FrameSource {
  RgbImage capture(Scope scope, int maxLongEdge);
}
