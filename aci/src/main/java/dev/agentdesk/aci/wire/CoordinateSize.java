package dev.agentdesk.aci.wire;

/** Delivered image dimensions after downscale (schema {@code CoordinateSize}). */
public record CoordinateSize(long w, long h) {
  public CoordinateSize {
    Check.atLeast(w, 1, "w");
    Check.atLeast(h, 1, "h");
  }
}
