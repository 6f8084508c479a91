package dev.agentdesk.aci.wire;

import java.util.Objects;

/**
 * Where a pointer or element verb acts (schema {@code Target}): global action pixels, a
 * normalised point, or an element ref from a structured observation.
 */
public sealed interface Target permits Target.PointPx, Target.PointNorm, Target.ElementRef {
  TargetKind kind();

  /** Global action-space pixels, origin top-left. */
  record PointPx(double x, double y) implements Target {
    public PointPx {
      Check.finite(x, "x");
      Check.finite(y, "y");
    }

    @Override
    public TargetKind kind() {
      return TargetKind.POINT_PX;
    }
  }

  /** A point as a fraction of the screen, each coordinate in [0, 1]. */
  record PointNorm(double x, double y) implements Target {
    public PointNorm {
      Check.between(x, 0.0, 1.0, "x");
      Check.between(y, 0.0, 1.0, "y");
    }

    @Override
    public TargetKind kind() {
      return TargetKind.POINT_NORM;
    }
  }

  /** An element by its session ref ({@code e<N>}); {@code source} may be null (absent). */
  record ElementRef(String ref, ElementSource source) implements Target {
    public ElementRef {
      Check.required(ref, "ref");
    }

    public ElementRef(String ref) {
      this(ref, null);
    }

    @Override
    public TargetKind kind() {
      return TargetKind.ELEMENT_REF;
    }
  }

  static Target px(double x, double y) {
    return new PointPx(x, y);
  }

  static Target norm(double x, double y) {
    return new PointNorm(x, y);
  }

  static Target element(String ref) {
    return new ElementRef(Objects.requireNonNull(ref, "ref"));
  }
}
