package dev.agentdesk.aci.runtime.atspi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.atspi.StructuredObservationException.Kind;
import dev.agentdesk.aci.wire.WireCodec;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gtk3-widget-factory: a large, deep GTK window with every common widget kind. */
class WidgetFactoryTest {
  static AtspiDesktop desktop;
  static AtspiEngine engine;

  @BeforeAll
  static void up() throws Exception {
    desktop = AtspiDesktop.start(1280, 1024, false);
    desktop.launch("gtk3-widget-factory");
    engine = AtspiEngine.create(desktop.settings());
  }

  @AfterAll
  static void down() {
    if (engine != null) {
      engine.close();
    }
    if (desktop != null) {
      desktop.close();
    }
  }

  static Observation awaitFactory(StructuredObserver o) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    Observation ob = null;
    while (System.nanoTime() < deadline) {
      ob = o.observe(ObserveRequest.FULL);
      if (ob.elements().stream().filter(e -> e.role().equals("check box")).count() >= 6) {
        return ob;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("widget factory never showed its check boxes:\n"
        + (ob == null ? "" : ob.treeText()));
  }

  static AtspiElement first(Observation ob, String role, String name, List<String> states,
      List<String> absentStates) {
    return ob.elements().stream()
        .filter(e -> e.role().equals(role) && e.name().equals(name))
        .filter(e -> e.states().containsAll(states))
        .filter(e -> absentStates.stream().noneMatch(e::hasState))
        .findFirst().orElseThrow(() -> new AssertionError(role + " " + name + " " + states
            + " not in\n" + ob.treeText()));
  }

  @Test
  void theWholeWindowIsWalkedAndRenderedAsAnIndentedTree() throws Exception {
    try (StructuredObserver o = engine.openSession()) {
      Observation ob = awaitFactory(o);
      assertThat(ob.limitsHit()).isEmpty();
      assertThat(ob.nodeCount()).isGreaterThan(100);
      assertThat(ob.treeText()).startsWith("app: gtk3-widget-factory | window: ");
      first(ob, "check box", "checkbutton", List.of("checked", "sensitive"), List.of());
      first(ob, "push button", "Close", List.of(), List.of());
      first(ob, "slider", "", List.of("sensitive"), List.of());
      first(ob, "spin button", "", List.of("editable"), List.of());

      // Elements come parent first, then the parent's subtree (depth first).
      Map<String, Integer> position = new HashMap<>();
      for (int i = 0; i < ob.elements().size(); i++) {
        AtspiElement e = ob.elements().get(i);
        position.put(e.ref(), i);
        e.parentRef().ifPresent(p -> {
          assertThat(position).containsKey(p);
          assertThat(ob.element(p).orElseThrow().depth()).isEqualTo(e.depth() - 1);
        });
      }
      // Each rendered line is indented at most one step deeper than the line before it.
      List<String> lines = Arrays.asList(ob.treeText().split("\n"));
      int previous = -1;
      for (String line : lines.subList(1, lines.size() - 1)) {
        int indent = (line.length() - line.stripLeading().length()) / 2;
        assertThat(line.stripLeading()).matches("e[1-9][0-9]* [a-z_]+( .*)?");
        assertThat(indent).isLessThanOrEqualTo(previous + 1);
        previous = indent;
      }
    }
  }

  @Test
  void rolesAreAtspiOwnNamesAsThePeerFixturesUseThem() throws Exception {
    try (StructuredObserver o = engine.openSession()) {
      Observation ob = awaitFactory(o);
      Set<String> produced = new HashSet<>();
      ob.elements().forEach(e -> produced.add(e.role()));
      // Every role of the peer contract fixtures is one this walk of a real GTK window produced,
      // byte for byte; AT-SPI role names have spaces, never underscores.
      assertThat(produced).containsAll(PeerRoleNamesTest.peerRoles());
      assertThat(produced).contains("push button", "check box", "spin button")
          .noneMatch(r -> r.contains("_") || r.isBlank());
      JsonNode json = WireCodec.parse(WireCodec.encode(AtspiWire.observation("r", ob)));
      for (int i = 0; i < ob.elements().size(); i++) {
        assertThat(json.path("elements").get(i).path("role").asText())
            .isEqualTo(ob.elements().get(i).role());
      }
      assertThat(ob.treeText()).contains(" push_button ", " check_box ")
          .doesNotContain(" push button ");
    }
  }

  @Test
  void elementVerbsOnValueWidgetsAndCheckBoxes() throws Exception {
    try (StructuredObserver o = engine.openSession()) {
      Observation ob = awaitFactory(o);
      AtspiElement slider = ob.elements().stream()
          .filter(e -> e.role().equals("slider") && e.hasState("sensitive")
              && e.value().filter("50"::equals).isPresent())
          .findFirst().orElseThrow();
      o.setValue(slider.ref(), "75");
      assertThat(o.observe(ObserveRequest.FULL).element(slider.ref())
          .flatMap(AtspiElement::value)).contains("75");
      assertThatThrownBy(() -> o.setValue(slider.ref(), "lots"))
          .isInstanceOfSatisfying(StructuredObservationException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.VERB_FAILED);
            assertThat(e.getMessage()).isEqualTo("set_value " + slider.ref()
                + " failed: \"lots\" is not a number (the element takes a numeric Value)");
          });

      Observation base = o.observe(ObserveRequest.FULL);
      AtspiElement box = first(base, "check box", "checkbutton", List.of("sensitive"),
          List.of("checked", "indeterminate"));
      o.invokeAction(box.ref(), "click");
      Observation toggled = o.observe(new ObserveRequest(true, 200));
      assertThat(toggled.element(box.ref()).orElseThrow().hasState("checked")).isTrue();
      assertThat(toggled.treeText()).contains("\n~ " + box.ref()
          + " check_box (checked) \"checkbutton\" Actions:");
    }
  }
}
