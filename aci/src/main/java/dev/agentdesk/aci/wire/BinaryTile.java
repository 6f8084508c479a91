package dev.agentdesk.aci.wire;

/** A tile in a binary frame header (schema {@code BinaryTile}): bytes located by off/len. */
public record BinaryTile(long x, long y, long w, long h, long off, long len) {
  public BinaryTile {
    Check.atLeast(x, 0, "x");
    Check.atLeast(y, 0, "y");
    Check.atLeast(w, 1, "w");
    Check.atLeast(h, 1, "h");
    Check.nonNegativeRange(off, "off");
    Check.nonNegativeRange(len, "len");
  }
}
