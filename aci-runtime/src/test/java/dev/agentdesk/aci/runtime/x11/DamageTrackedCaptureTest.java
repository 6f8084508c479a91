package dev.agentdesk.aci.runtime.x11;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.image.RgbImage;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Captures patched from XDamage rectangles must equal a capture that reads every pixel. The truth
 * is a second desktop without shared memory (plain XGetImage of the requested region, no damage
 * tracking); a seeded random sequence of window maps, child patches, moves, raises and destroys
 * from a third X client changes the screen between captures.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 640, height = 480)
class DamageTrackedCaptureTest {

  @Test
  void patchedFramesEqualFullReadsAfterEveryChange(XDisplay display) {
    try (X11Desktop tracked = X11Desktop.open(display.name());
        X11Desktop reference = X11Desktop.open(display.name(), false);
        TestWindows apps = new TestWindows(display.name())) {
      assertThat(((X11Capture) tracked.capture()).damageTracking()).as("DAMAGE on Xvfb").isTrue();
      assertThat(((X11Capture) reference.capture()).damageTracking()).isFalse();
      Rect screen = tracked.capture().screen();
      Random r = new Random(42);
      List<Long> tops = new ArrayList<>();
      assertSame(tracked, reference, screen);
      for (int step = 0; step < 80; step++) {
        int op = tops.isEmpty() ? 0 : r.nextInt(5);
        switch (op) {
          case 0 -> tops.add(apps.create(r.nextInt(600) - 40, r.nextInt(440) - 40, 20 + r.nextInt(300),
              20 + r.nextInt(200), r.nextInt(0x1000000), "w" + step, "Damage", null));
          case 1 -> apps.patch(pick(tops, r), r.nextInt(100), r.nextInt(100), 5 + r.nextInt(60), 5 + r.nextInt(60),
              r.nextInt(0x1000000));
          case 2 -> apps.move(pick(tops, r), r.nextInt(600) - 40, r.nextInt(440) - 40);
          case 3 -> apps.raise(pick(tops, r));
          default -> {
            long id = pick(tops, r);
            tops.remove(id);
            apps.destroy(id);
          }
        }
        assertSame(tracked, reference, screen);
        int x = r.nextInt(screen.w() - 1);
        int y = r.nextInt(screen.h() - 1);
        Rect part = new Rect(x, y, 1 + r.nextInt(screen.w() - x), 1 + r.nextInt(screen.h() - y));
        assertSame(tracked, reference, part);
      }
    }
  }

  @Test
  void anUnchangedScreenNeedsNoRereadAndStaysIdentical(XDisplay display) {
    try (X11Desktop tracked = X11Desktop.open(display.name());
        TestWindows apps = new TestWindows(display.name())) {
      Rect screen = tracked.capture().screen();
      RgbImage first = tracked.capture().capture(screen);
      X11Capture capture = (X11Capture) tracked.capture();
      assertThat(capture.damageTracking()).isTrue();
      assertThat(tracked.capture().capture(screen)).as("nothing drawn: the same image again").isSameAs(first);
      assertThat(tracked.capture().capture(new Rect(0, 0, 20, 20)).rgbAt(0, 0)).isEqualTo(first.rgbAt(0, 0));
      long w = apps.create(10, 10, 50, 50, 0x123456, "t", "Damage", null);
      RgbImage changed = tracked.capture().capture(screen);
      assertThat(changed.frameHash()).isNotEqualTo(first.frameHash());
      assertThat(changed.rgbAt(30, 30)).isEqualTo(0x123456);
      // the earlier frame handed out is a copy: patching the tracked frame must not touch it
      assertThat(first.rgbAt(30, 30)).isNotEqualTo(0x123456);
      apps.destroy(w);
      assertThat(tracked.capture().capture(screen).frameHash()).isEqualTo(first.frameHash());
    }
  }

  private static long pick(List<Long> ids, Random r) {
    return ids.get(r.nextInt(ids.size()));
  }

  private static void assertSame(X11Desktop tracked, X11Desktop reference, Rect region) {
    RgbImage got = tracked.capture().capture(region);
    RgbImage want = reference.capture().capture(region);
    assertThat(got.width()).isEqualTo(want.width());
    assertThat(got.height()).isEqualTo(want.height());
    if (!java.util.Arrays.equals(got.rgb(), want.rgb())) {
      int i = java.util.Arrays.mismatch(got.rgb(), want.rgb()) / 3;
      throw new AssertionError(String.format("region %s differs first at (%d,%d): got %06x, want %06x", region,
          region.x() + i % region.w(), region.y() + i / region.w(), got.rgbAt(i % region.w(), i / region.w()),
          want.rgbAt(i % region.w(), i / region.w())));
    }
  }
}
