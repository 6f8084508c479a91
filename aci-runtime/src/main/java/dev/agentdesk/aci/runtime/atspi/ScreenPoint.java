package dev.agentdesk.aci.runtime.atspi;

/** A point in display pixels, as a pointer verb's {@code point_px} target. */
public record ScreenPoint(int x, int y) {}
