package dev.agentdesk.aci.runtime.desktop;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import java.util.ArrayList;
import java.util.List;

/** Pointer gestures built from primitive input, with the reference runtime's clamps. */
public final class Gestures {
  /** Longest drag we will spend time on. */
  public static final int MAX_DRAG_MS = 10_000;
  /** Path granularity: one motion per this many pixels of distance. */
  public static final int DRAG_STEP_PX = 16;
  public static final int MAX_DRAG_STEPS = 64;
  /** Pixels per wheel click and the most clicks one scroll sends per axis. */
  public static final int PX_PER_WHEEL_CLICK = 100;
  public static final int MAX_WHEEL_CLICKS = 20;

  private final InputBackend input;

  public Gestures(InputBackend input) {
    this.input = input;
  }

  public void click(int x, int y, int button, int count) {
    input.motion(x, y);
    for (int i = 0; i < count; i++) {
      input.button(button, true);
      input.button(button, false);
    }
    input.sync();
  }

  /** The interpolated drag path from (x0,y0) to (x1,y1), both ends included. */
  public static List<int[]> dragPath(int x0, int y0, int x1, int y1) {
    double dist = Math.hypot(x1 - x0, y1 - y0);
    int steps = (int) Math.max(1, Math.min(MAX_DRAG_STEPS, Math.ceil(dist / DRAG_STEP_PX)));
    List<int[]> path = new ArrayList<>(steps + 1);
    path.add(new int[] {x0, y0});
    for (int i = 1; i <= steps; i++) {
      double t = (double) i / steps;
      path.add(new int[] {(int) Math.round(x0 + (x1 - x0) * t), (int) Math.round(y0 + (y1 - y0) * t)});
    }
    path.set(path.size() - 1, new int[] {x1, y1});
    return path;
  }

  public void drag(int x0, int y0, int x1, int y1, int button, long durationMs) throws InterruptedException {
    long duration = Math.max(0, Math.min(MAX_DRAG_MS, durationMs));
    List<int[]> path = dragPath(x0, y0, x1, y1);
    int segments = path.size() - 1;
    input.motion(x0, y0);
    input.button(button, true);
    try {
      for (int i = 1; i < path.size(); i++) {
        long pause = duration / segments;
        if (pause > 0) {
          input.sync();
          Thread.sleep(pause);
        }
        input.motion(path.get(i)[0], path.get(i)[1]);
      }
    } finally {
      input.button(button, false);
      input.sync();
    }
  }

  /** Wheel clicks for a pixel distance: ceil(|px| / 100), clamped to 1..20; 0 when px is 0. */
  public static int wheelClicks(double px) {
    if (px == 0) {
      return 0;
    }
    return (int) Math.max(1, Math.min(MAX_WHEEL_CLICKS, Math.ceil(Math.abs(px) / PX_PER_WHEEL_CLICK)));
  }

  /** Scrolls at (x, y): +dy is down (button 5), +dx is right (button 7); the vertical axis first. */
  public void scroll(int x, int y, double dx, double dy) {
    if (dx == 0 && dy == 0) {
      throw AciRuntimeException.badRequest("scroll requires a nonzero dx or dy");
    }
    wheel(x, y, wheelClicks(dy), dy > 0 ? 5 : 4);
    wheel(x, y, wheelClicks(dx), dx > 0 ? 7 : 6);
    input.sync();
  }

  private void wheel(int x, int y, int clicks, int button) {
    for (int i = 0; i < clicks; i++) {
      input.motion(x, y);
      input.button(button, true);
      input.button(button, false);
    }
  }
}
