package dev.agentdesk.aci.wire;

/** An element's {@code [x, y, w, h]} in display pixels. */
public record Bbox(double x, double y, double w, double h) {
  public Bbox {
    Check.finite(x, "0");
    Check.finite(y, "1");
    Check.finite(w, "2");
    Check.finite(h, "3");
  }
}
