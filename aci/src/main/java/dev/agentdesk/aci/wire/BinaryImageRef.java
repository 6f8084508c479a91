package dev.agentdesk.aci.wire;

/**
 * The image of a binary frame header: bytes at {@code [off, off+len)} of the payload area, plus
 * the dimensions; {@code scope}/{@code format} may be null (absent; format absent means png).
 */
public record BinaryImageRef(long off, long len, long w, long h, Scope scope, ImageFormat format) {
  public BinaryImageRef {
    Check.nonNegativeRange(off, "off");
    Check.nonNegativeRange(len, "len");
  }
}
