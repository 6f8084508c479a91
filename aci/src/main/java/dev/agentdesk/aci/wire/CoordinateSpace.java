package dev.agentdesk.aci.wire;

/**
 * How an observation's pixels map to action coordinates (schema {@code CoordinateSpace}). The
 * origin is always top-left (the schema's const), so it is not a component.
 */
public record CoordinateSpace(long w, long h, double dpr, CoordinateRect sourceRect, CoordinateSize delivered) {
  public static final String ORIGIN = "top-left";

  public CoordinateSpace {
    Check.atLeast(w, 1, "w");
    Check.atLeast(h, 1, "h");
    Check.finite(dpr, "dpr");
    if (dpr <= 0) {
      throw new dev.agentdesk.aci.WireException(dev.agentdesk.aci.WireException.Reason.INVALID_VALUE, "/dpr",
          "must be > 0, got " + dpr);
    }
    Check.required(sourceRect, "source_rect");
    Check.required(delivered, "delivered");
  }
}
