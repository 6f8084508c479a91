package dev.agentdesk.aci.runtime.atspi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The event cache against the truth: gtk3-widget-factory observed by two engines on the same
 * bus, one with the cache and one reading everything, in lockstep (same observes in the same
 * order, so both mint the same refs). After every edit the cached observe — tree_text, elements
 * with their refs, boxes and values, and the diff form — must equal the uncached one. The edits
 * are the ones an agent makes: typing, a check box, a slider, a page switch, a dialog opened and
 * closed; then the ways a cache goes stale: the app restarting, the event subscription dropped,
 * the connection closed.
 */
class ObserveCacheTest {
  static final ObserveRequest SETTLED_FULL = new ObserveRequest(false, 150);
  static final ObserveRequest SETTLED_DIFF = new ObserveRequest(true, 150);
  /**
   * The widget factory's spinners send BoundsChanged about 40 times a second, so a settle never
   * sees its quiet window and runs to the cap; a 600 ms cap instead of 3 s keeps the test short
   * and still lets the application finish reacting to an edit.
   */
  static final WalkLimits LIMITS = new WalkLimits(WalkLimits.DEFAULTS.perCall(),
      WalkLimits.DEFAULTS.walkBudget(), WalkLimits.DEFAULTS.nodeCap(),
      WalkLimits.DEFAULTS.depthCap(), WalkLimits.DEFAULTS.appCap(),
      WalkLimits.DEFAULTS.textCap(), WalkLimits.DEFAULTS.settleQuietMin(),
      WalkLimits.DEFAULTS.settleQuietMax(), Duration.ofMillis(600),
      WalkLimits.DEFAULTS.request(), WalkLimits.DEFAULTS.diffLineBudget());

  static AtspiDesktop desktop;
  static AtspiDesktop.GuiApp factory;
  static AtspiEngine cachedEngine;
  static AtspiEngine plainEngine;
  StructuredObserver cached;
  StructuredObserver plain;

  @BeforeAll
  static void up() throws Exception {
    desktop = AtspiDesktop.start(1280, 1024, false);
    factory = desktop.launch("gtk3-widget-factory");
    cachedEngine = AtspiEngine.create(desktop.settings().withLimits(LIMITS));
    plainEngine = AtspiEngine.create(desktop.settings().withLimits(LIMITS).withEventCache(false));
    assertThat(cachedEngine.settings().eventCache()).isTrue();
  }

  @BeforeEach
  void pair() throws Exception {
    openPair();
  }

  @AfterEach
  void closePair() {
    cached.close();
    plain.close();
    cached = null;
  }

  @AfterAll
  static void down() {
    for (AutoCloseable c : new AutoCloseable[] {cachedEngine, plainEngine, desktop}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception ignored) {
        // Closing the rest matters more.
      }
    }
  }

  /** Waits (on a throwaway session) until the window is complete, then opens the pair. */
  private void openPair() throws InterruptedException {
    try (StructuredObserver waiter = plainEngine.openSession()) {
      WidgetFactoryTest.awaitFactory(waiter);
    }
    if (cached != null) {
      cached.close();
      plain.close();
    }
    cached = cachedEngine.openSession();
    plain = plainEngine.openSession();
  }

  /** Both observe (uncached first, each after the UI went quiet); they must agree exactly. */
  private Observation assertSame(String step, ObserveRequest request) {
    Observation truth = plain.observe(request);
    Observation fromCache = cached.observe(request);
    assertThat(fromCache.treeText()).as(step + ": tree_text").isEqualTo(truth.treeText());
    assertThat(fromCache.elements()).as(step + ": elements").isEqualTo(truth.elements());
    assertThat(fromCache.tree()).as(step).isEqualTo(truth.tree());
    assertThat(fromCache.limitsHit()).as(step).isEmpty();
    return fromCache;
  }

  /** The diff after an edit, then the full tree: both forms from the cache equal the truth. */
  private Observation afterEdit(String step) {
    assertSame(step + " (diff)", SETTLED_DIFF);
    return assertSame(step, SETTLED_FULL);
  }

  private static Map<String, String> refsByPath(Observation o) {
    Map<String, String> m = new HashMap<>();
    o.elements().forEach(e -> m.put(e.busName() + e.path(), e.ref()));
    return m;
  }

  private void click(Observation o, String ref) throws Exception {
    ScreenPoint p = cached.resolveCenter(ref, 1280, 1024);
    desktop.xdotool("mousemove", String.valueOf(p.x()), String.valueOf(p.y()), "click", "1");
  }

  private static AtspiElement find(Observation o, String role, String name) {
    return WidgetFactoryTest.first(o, role, name, List.of("sensitive"), List.of());
  }

  @Test
  void afterEveryEditTheCachedTreeEqualsAFreshWalk() throws Exception {
    Observation start = assertSame("first observe", SETTLED_FULL);
    assertSame("nothing changed", SETTLED_FULL);
    assertThat(cachedEngine.walkCounts()[1]).as("walks served from the cache").isPositive();

    // Typing into an entry (a click moves the focus, then keystrokes).
    AtspiElement entry = start.elements().stream()
        .filter(e -> e.role().equals("text") && e.hasState("editable") && e.hasState("sensitive")
            && e.value().filter(String::isEmpty).isPresent())
        .findFirst().orElseThrow();
    click(start, entry.ref());
    desktop.xdotool("type", "--delay", "20", "hello cache");
    Observation typed = afterEdit("typing into an entry");
    assertThat(typed.element(entry.ref()).orElseThrow().value()).contains("hello cache");
    desktop.xdotool("key", "ctrl+a", "BackSpace");
    assertThat(afterEdit("clearing it").element(entry.ref()).orElseThrow().value()).contains("");
    assertThat(typed.focus()).contains(entry.ref());

    // A check box toggled with the pointer.
    AtspiElement box = WidgetFactoryTest.first(typed, "check box", "checkbutton",
        List.of("sensitive"), List.of("indeterminate"));
    click(typed, box.ref());
    Observation toggled = afterEdit("toggling a check box");
    assertThat(toggled.element(box.ref()).orElseThrow().hasState("checked"))
        .isNotEqualTo(box.hasState("checked"));

    // A slider moved through AT-SPI's Value.
    AtspiElement slider = toggled.elements().stream()
        .filter(e -> e.role().equals("slider") && e.hasState("sensitive")
            && e.value().filter("50"::equals).isPresent())
        .findFirst().orElseThrow();
    cached.setValue(slider.ref(), "30");
    Observation slid = afterEdit("moving a slider");
    assertThat(slid.element(slider.ref()).orElseThrow().value()).contains("30");
    cached.setValue(slider.ref(), "50");
    afterEdit("moving it back");

    // Refs stay put: every accessible seen before and after keeps its ref.
    Map<String, String> before = refsByPath(start);
    refsByPath(slid).forEach((path, ref) -> {
      if (before.containsKey(path)) {
        assertThat(ref).as(path).isEqualTo(before.get(path));
      }
    });

    // Another page: most of the window is replaced.
    cached.invokeAction(find(slid, "radio button", "Page 2").ref(), null);
    Observation page2 = afterEdit("switching to page 2");
    assertThat(page2.elements()).noneMatch(e -> e.ref().equals(box.ref()));
    cached.invokeAction(find(page2, "radio button", "Page 1").ref(), null);
    Observation page1 = afterEdit("switching back to page 1");
    assertThat(page1.element(box.ref())).as("hidden on page 2, so evicted: back with a new ref")
        .isEmpty();

    // A dialog (a new top-level window of the same application) opened and closed.
    cached.invokeAction(find(page1, "push button", "Sans Regular").ref(), null);
    Observation dialog = afterEdit("opening the font dialog");
    assertThat(dialog.treeText()).contains(" dialog ");
    AtspiElement cancel = find(dialog, "push button", "Cancel");
    cached.invokeAction(cancel.ref(), null);
    Observation closed = afterEdit("closing the font dialog");
    assertThat(closed.elements()).noneMatch(e -> e.role().equals("dialog"));
  }

  @Test
  void aRestartedApplicationIsWalkedAfresh() throws Exception {
    assertSame("before the restart", SETTLED_FULL);
    assertSame("warm", SETTLED_FULL);
    factory.process().destroy();
    assertThat(factory.waitForExit(10, TimeUnit.SECONDS)).isTrue();
    cached.observe(SETTLED_FULL);
    factory = desktop.launch("gtk3-widget-factory");
    openPair();
    Observation after = assertSame("after the restart", SETTLED_FULL);
    assertThat(after.nodeCount()).isGreaterThan(100);
    assertSame("warm after the restart", SETTLED_FULL);
  }

  @Test
  void aDroppedEventSubscriptionIsNoticedAndTheTreeReadAgain() throws Exception {
    Observation warm = assertSame("warm", SETTLED_FULL);
    long fullWalks = cachedEngine.walkCounts()[0];
    // The cached engine stops hearing events; the check box changes behind its back.
    cachedEngine.bus(System.nanoTime() + TimeUnit.SECONDS.toNanos(2)).dropSubscription(1000);
    AtspiElement box = WidgetFactoryTest.first(warm, "check box", "checkbutton",
        List.of("sensitive"), List.of("indeterminate"));
    boolean wasChecked = box.hasState("checked");
    plain.invokeAction(box.ref(), null);
    Observation after = assertSame("after the subscription was dropped", SETTLED_FULL);
    assertThat(after.element(box.ref()).orElseThrow().hasState("checked")).isNotEqualTo(wasChecked);
    assertThat(cachedEngine.walkCounts()[0]).as("a full walk").isEqualTo(fullWalks + 1);
    // Subscribed again: the next change arrives as an event and the cache serves the walk.
    plain.invokeAction(box.ref(), null);
    long cachedWalks = cachedEngine.walkCounts()[1];
    Observation again = assertSame("subscribed again", SETTLED_FULL);
    assertThat(again.element(box.ref()).orElseThrow().hasState("checked")).isEqualTo(wasChecked);
    assertThat(cachedEngine.walkCounts()[1]).isEqualTo(cachedWalks + 1);
  }

  @Test
  void aClosedConnectionStartsFromAnEmptyCache() throws Exception {
    Observation warm = assertSame("warm", SETTLED_FULL);
    cachedEngine.bus(System.nanoTime() + TimeUnit.SECONDS.toNanos(2)).close();
    AtspiElement box = WidgetFactoryTest.first(warm, "check box", "checkbutton",
        List.of("sensitive"), List.of("indeterminate"));
    plain.invokeAction(box.ref(), null);
    Observation after = assertSame("after reconnecting", SETTLED_FULL);
    assertThat(after.element(box.ref()).orElseThrow().hasState("checked"))
        .isNotEqualTo(box.hasState("checked"));
    assertThat(cachedEngine.walkCounts()).as("a new connection, one full walk")
        .containsExactly(1, 0);
  }
}
