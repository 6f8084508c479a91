package dev.agentdesk.aci.wire;

/** One changed tile of a delta screencast frame (schema {@code Tile}); {@code ref} is base64. */
public record Tile(long x, long y, long w, long h, String ref) {
  public Tile {
    Check.atLeast(x, 0, "x");
    Check.atLeast(y, 0, "y");
    Check.atLeast(w, 1, "w");
    Check.atLeast(h, 1, "h");
    Check.required(ref, "ref");
  }
}
