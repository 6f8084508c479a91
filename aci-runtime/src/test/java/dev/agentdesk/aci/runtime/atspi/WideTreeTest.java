package dev.agentdesk.aci.runtime.atspi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A zenity list of hundreds of cells: a wide tree that runs into the node cap. */
class WideTreeTest {
  static AtspiDesktop desktop;
  static AtspiDesktop.GuiApp list;

  @BeforeAll
  static void up() throws Exception {
    desktop = AtspiDesktop.start(1280, 1024, false);
    List<String> argv = new ArrayList<>(List.of("zenity", "--list", "--title", "Wide",
        "--width", "1200", "--height", "1000"));
    for (String c : List.of("A", "B", "C", "D", "E", "F")) {
      argv.add("--column");
      argv.add(c);
    }
    for (int row = 0; row < 200; row++) {
      for (int col = 0; col < 6; col++) {
        argv.add("r" + row + "c" + col);
      }
    }
    list = desktop.launch(argv.toArray(String[]::new));
  }

  @AfterAll
  static void down() {
    if (desktop != null) {
      desktop.close();
    }
  }

  static Observation awaitCells(AtspiEngine engine, int atLeast) throws InterruptedException {
    try (StructuredObserver o = engine.openSession()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      Observation last = null;
      while (System.nanoTime() < deadline) {
        last = o.observe(ObserveRequest.FULL);
        if (last.nodeCount() >= atLeast) {
          return last;
        }
        Thread.sleep(100);
      }
      throw new AssertionError("only " + (last == null ? 0 : last.nodeCount()) + " nodes:\n"
          + (last == null ? "" : last.treeText()));
    }
  }

  @Test
  void aWideTreeHitsTheNodeCapAndSaysSo() throws Exception {
    try (AtspiEngine full = AtspiEngine.create(desktop.settings())) {
      Observation whole = awaitCells(full, 100);
      assertThat(whole.limitsHit()).isEmpty();
      assertThat(whole.treeText()).doesNotContain("\n! ");
      assertThat(whole.treeText()).contains("\"r0c0\"");

      int cap = 60;
      try (AtspiEngine capped = AtspiEngine.create(
          desktop.settings().withLimits(WalkLimits.DEFAULTS.withNodeCap(cap)))) {
        Observation cut = awaitCells(capped, 1);
        assertThat(cut.nodeCount()).isLessThanOrEqualTo(cap).isLessThan(whole.nodeCount());
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.limitsHit()).anyMatch(n -> n.startsWith("node cap 60 reached"));
        assertThat(cut.treeText().split("\n")[1]).startsWith("! node cap 60 reached");
        // What was walked is the top of the tree: the window and the list's first level.
        assertThat(cut.elements().get(0).depth()).isEqualTo(1);
      }
    }
  }
}
