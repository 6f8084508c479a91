package dev.agentdesk.aci.runtime.atspi;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Where a pointer verb aimed at an element lands. */
class BboxTest {
  @Test
  void theCentreOfABoxOnScreen() {
    assertThat(new Bbox(644, 418, 86, 34).centreClippedTo(1280, 800))
        .isEqualTo(new ScreenPoint(687, 435));
  }

  @Test
  void aBoxHangingOffTheScreenIsAimedAtItsVisibleEdge() {
    assertThat(new Bbox(1200, 780, 400, 100).centreClippedTo(1280, 800))
        .isEqualTo(new ScreenPoint(1279, 799));
    assertThat(new Bbox(-300, -50, 200, 60).centreClippedTo(1280, 800))
        .isEqualTo(new ScreenPoint(0, 0));
  }

  @Test
  void emptyBoxesAreNotUsable() {
    assertThat(Bbox.NONE.usable()).isFalse();
    assertThat(new Bbox(5, 5, 0, 10).usable()).isFalse();
    assertThat(new Bbox(5, 5, 1, 1).usable()).isTrue();
  }

  @Property
  void theAimIsAlwaysOnScreen(@ForAll @IntRange(min = -5000, max = 5000) int x,
      @ForAll @IntRange(min = -5000, max = 5000) int y,
      @ForAll @IntRange(min = 1, max = 3000) int w, @ForAll @IntRange(min = 1, max = 3000) int h) {
    ScreenPoint p = new Bbox(x, y, w, h).centreClippedTo(1280, 800);
    assertThat(p.x()).isBetween(0, 1279);
    assertThat(p.y()).isBetween(0, 799);
  }
}
