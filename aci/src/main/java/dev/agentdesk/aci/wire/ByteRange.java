package dev.agentdesk.aci.wire;

/** A slice {@code [off, off+len)} of a binary frame's payload area. */
public record ByteRange(long off, long len) {
  public ByteRange {
    Check.atLeast(off, 0, "off");
    Check.atLeast(len, 0, "len");
  }

  public long end() {
    return off + len;
  }
}
