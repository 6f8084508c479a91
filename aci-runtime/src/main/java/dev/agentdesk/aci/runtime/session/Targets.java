package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.wire.Target;

/** Turns action targets into global pixels, with the reference runtime's range rules and words. */
final class Targets {
  private Targets() {}

  /** Resolves element refs to pixels; null when the session has no structured observation. */
  interface ElementRefs {
    int[] centre(String ref, Rect screen);
  }

  /** [x, y] in pixels for a target on a screen of {@code screen.w() x screen.h()}. */
  static int[] resolve(Target target, Rect screen) {
    return resolve(target, screen, null);
  }

  /** As {@link #resolve(Target, Rect)}, with {@code element_ref} targets resolved by {@code refs}. */
  static int[] resolve(Target target, Rect screen, ElementRefs refs) {
    if (target == null) {
      throw AciRuntimeException.badRequest("action requires a target");
    }
    if (target instanceof Target.PointPx p) {
      if (!Double.isFinite(p.x()) || !Double.isFinite(p.y())) {
        throw AciRuntimeException.badRequest("point_px must be finite: (" + num(p.x()) + ", " + num(p.y()) + ")");
      }
      if (p.x() < 0 || p.y() < 0 || p.x() >= screen.w() || p.y() >= screen.h()) {
        throw AciRuntimeException.badRequest("point_px out of range: (" + num(p.x()) + ", " + num(p.y())
            + ") — must be within [0, " + screen.w() + ") x [0, " + screen.h() + ")");
      }
      return new int[] {(int) p.x(), (int) p.y()};
    }
    if (target instanceof Target.PointNorm n) {
      if (n.x() < 0 || n.x() > 1 || n.y() < 0 || n.y() > 1) {
        throw AciRuntimeException.badRequest(
            "point_norm out of range: (" + num(n.x()) + ", " + num(n.y()) + ") — must be within [0, 1]");
      }
      return new int[] {(int) Math.round(n.x() * (screen.w() - 1)), (int) Math.round(n.y() * (screen.h() - 1))};
    }
    if (target instanceof Target.ElementRef e && refs != null) {
      return refs.centre(e.ref(), screen);
    }
    // An element_ref without a structured engine: no session can hold a ref.
    throw new AciRuntimeException(AciRuntimeException.Reason.NOT_FOUND,
        "stale_element_ref: no structured observation on this session yet (send an `observe` action first)");
  }

  /** A number the way the reference prints it: integers without a fraction. */
  static String num(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }

  /** The window id of {@code window:<id>} (decimal or 0x-hex, must fit in 32 bits), else -1. */
  static long windowIdOf(String scope) {
    if (!scope.startsWith("window:")) {
      return -1;
    }
    String id = scope.substring(7);
    try {
      long v;
      if (id.startsWith("0x") && id.length() > 2 && id.length() <= 10) {
        v = Long.parseLong(id.substring(2), 16);
      } else if (!id.isEmpty() && id.length() <= 10 && id.chars().allMatch(Character::isDigit)) {
        v = Long.parseLong(id);
      } else {
        return -1;
      }
      return v <= 0xFFFFFFFFL ? v : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
