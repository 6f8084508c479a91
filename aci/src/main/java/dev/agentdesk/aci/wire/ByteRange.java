package dev.agentdesk.aci.wire;

/** A slice {@code [off, off+len)} of a binary frame's payload area. */
public record ByteRange(long off, long len) {
  public ByteRange {
    Check.nonNegativeRange(off, "off");
    Check.nonNegativeRange(len, "len");
  }

  public long end() {
    return off + len;
  }
}
