package dev.agentdesk.aci.runtime.atspi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.runtime.atspi.Observation.TreeForm;
import dev.agentdesk.aci.runtime.atspi.StructuredObservationException.Kind;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import java.awt.image.BufferedImage;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The engine against real zenity dialogs on a real Xvfb + session bus + AT-SPI registry. */
class ZenityDialogTest {
  static final int W = 1280;
  static final int H = 800;
  static AtspiDesktop desktop;
  static AtspiEngine engine;

  @BeforeAll
  static void up() throws Exception {
    // Session bus in the abstract namespace, a11y bus on a path: both address kinds are used.
    desktop = AtspiDesktop.start(W, H, true);
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

  static Observation awaitTree(StructuredObserver o, Predicate<Observation> ready)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    Observation last = null;
    while (System.nanoTime() < deadline) {
      last = o.observe(ObserveRequest.FULL);
      if (ready.test(last)) {
        return last;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("tree never got ready; last:\n"
        + (last == null ? "" : last.treeText()));
  }

  static Predicate<Observation> windowNamed(String title) {
    return ob -> ob.elements().stream().anyMatch(e -> e.depth() == 1 && e.name().equals(title))
        && ob.elements().stream().anyMatch(e -> e.name().equals("OK"));
  }

  static AtspiElement only(Observation ob, Predicate<AtspiElement> p, String what) {
    List<AtspiElement> hits = ob.elements().stream().filter(p).toList();
    assertThat(hits).as(what + " in\n" + ob.treeText()).hasSize(1);
    return hits.get(0);
  }

  static AtspiElement button(Observation ob, String name) {
    return only(ob, e -> e.role().equals("push button") && e.name().equals(name), name);
  }

  static AtspiElement entry(Observation ob) {
    return only(ob, e -> e.role().equals("text") && e.hasState("editable"), "entry");
  }

  static List<String> diffBody(Observation ob) {
    return Arrays.stream(ob.treeText().split("\n"))
        .filter(l -> l.startsWith("~ ") || l.startsWith("+ ") || l.startsWith("- ")).toList();
  }

  static int luminance(int rgb) {
    return (((rgb >> 16) & 0xff) * 3 + ((rgb >> 8) & 0xff) * 6 + (rgb & 0xff)) / 10;
  }

  @Test
  void dialogTreeHoldsLabelEntryAndButtonsWithBoxesThatMatchTheScreen() throws Exception {
    DesktopApp app = new DesktopApp(desktop.launch("zenity", "--entry", "--title", "Ask",
        "--text", "Your name:"));
    try (StructuredObserver o = engine.openSession()) {
      Observation ob = awaitTree(o, windowNamed("Ask"));
      AtspiElement dialog = only(ob, e -> e.depth() == 1, "window");
      assertThat(dialog.role()).isEqualTo("dialog");
      assertThat(dialog.name()).isEqualTo("Ask");
      AtspiElement label = only(ob, e -> e.role().equals("label"), "label");
      assertThat(label.name()).isEqualTo("Your name:");
      AtspiElement entry = entry(ob);
      AtspiElement ok = button(ob, "OK");
      AtspiElement cancel = button(ob, "Cancel");
      assertThat(ok.actions()).isNotEmpty();
      assertThat(cancel.actions()).isNotEmpty();
      assertThat(entry.value()).contains("");
      assertThat(ob.focus()).contains(entry.ref());
      assertThat(entry.focused()).isTrue();
      for (AtspiElement e : ob.elements()) {
        assertThat(e.ref()).matches("e[1-9][0-9]*");
        assertThat(e.busName()).startsWith(":");
        assertThat(e.path()).startsWith("/org/a11y/atspi/accessible/");
      }
      assertThat(ob.elements().stream().map(AtspiElement::ref).distinct().count())
          .isEqualTo(ob.nodeCount());

      String[] lines = ob.treeText().split("\n");
      assertThat(lines[0]).isEqualTo("app: zenity | window: \"Ask\" (dialog) | revision: "
          + ob.revision());
      assertThat(lines[lines.length - 1]).isEqualTo("focus: " + entry.ref());
      assertThat(ob.treeText()).contains("\n  " + label.ref() + " label \"Your name:\"\n");
      assertThat(ob.treeText()).contains(ok.ref() + " push_button (is_default) \"OK\" Actions:");
      assertThat(ob.tree()).isEqualTo(TreeForm.FULL);
      assertThat(ob.limitsHit()).isEmpty();

      // The window's box is the X window's geometry (no window manager: no decorations).
      String wid = desktop.xdotool("search", "--name", "^Ask$").trim().split("\n")[0];
      Map<String, Integer> geo = new HashMap<>();
      for (String l : desktop.xdotool("getwindowgeometry", "--shell", wid).split("\n")) {
        String[] kv = l.split("=");
        if (kv.length == 2 && kv[1].matches("-?[0-9]+")) {
          geo.put(kv[0], Integer.parseInt(kv[1]));
        }
      }
      assertThat(dialog.bbox()).isEqualTo(
          new Bbox(geo.get("X"), geo.get("Y"), geo.get("WIDTH"), geo.get("HEIGHT")));

      // On the screenshot: the dialog's box is exactly where the black root stops, and each
      // button's box holds its dark label text.
      BufferedImage shot = ImageIO.read(desktop.screenshot().toFile());
      Bbox d = dialog.bbox();
      int midX = d.x() + d.w() / 2;
      int midY = d.y() + d.h() / 2;
      assertThat(shot.getRGB(midX, d.y()) & 0xffffff).isNotZero();
      assertThat(shot.getRGB(midX, d.y() - 1) & 0xffffff).isZero();
      assertThat(shot.getRGB(midX, d.y() + d.h() - 1) & 0xffffff).isNotZero();
      assertThat(shot.getRGB(midX, d.y() + d.h()) & 0xffffff).isZero();
      assertThat(shot.getRGB(d.x(), midY) & 0xffffff).isNotZero();
      assertThat(shot.getRGB(d.x() - 1, midY) & 0xffffff).isZero();
      assertThat(shot.getRGB(d.x() + d.w() - 1, midY) & 0xffffff).isNotZero();
      assertThat(shot.getRGB(d.x() + d.w(), midY) & 0xffffff).isZero();
      for (AtspiElement b : List.of(ok, cancel, label)) {
        Bbox bb = b.bbox();
        assertThat(bb.usable()).isTrue();
        assertThat(bb.x()).isGreaterThanOrEqualTo(d.x());
        assertThat(bb.y()).isGreaterThanOrEqualTo(d.y());
        assertThat(bb.x() + bb.w()).isLessThanOrEqualTo(d.x() + d.w());
        assertThat(bb.y() + bb.h()).isLessThanOrEqualTo(d.y() + d.h());
        int dark = 0;
        for (int y = bb.y(); y < bb.y() + bb.h(); y++) {
          for (int x = bb.x(); x < bb.x() + bb.w(); x++) {
            if (luminance(shot.getRGB(x, y)) < 90) {
              dark++;
            }
          }
        }
        assertThat(dark).as("text pixels inside " + b.name()).isGreaterThan(10);
      }
      assertThat(ok.bbox().x()).isGreaterThan(cancel.bbox().x());

      // On the wire: a schema-valid observation whose elements carry source and provenance.
      ObservationMsg msg = AtspiWire.observation("c-7", ob);
      assertThat(WireContract.bundled().validate(WireCodec.toJson(msg))).isEmpty();
      JsonNode json = WireCodec.parse(WireCodec.encode(msg));
      assertThat(json.get("obs_id").asText()).isEqualTo("obs-c-7");
      assertThat(json.get("cause").asText()).isEqualTo("c-7");
      assertThat(json.get("tree").asText()).isEqualTo("full");
      assertThat(json.get("node_count").asInt()).isEqualTo(ob.nodeCount());
      assertThat(json.get("focus").asText()).isEqualTo(entry.ref());
      JsonNode okJson = json.get("elements").get(ob.elements().indexOf(ok));
      assertThat(okJson.get("ref").asText()).isEqualTo(ok.ref());
      // AT-SPI's own role name, as the peer SDK's live observe test expects.
      assertThat(okJson.get("role").asText()).isEqualTo("push button");
      assertThat(okJson.get("name").asText()).isEqualTo("OK");
      assertThat(okJson.get("source").asText()).isEqualTo("atspi");
      assertThat(okJson.get("bbox").toString()).isEqualTo("[" + ok.bbox().x() + ","
          + ok.bbox().y() + "," + ok.bbox().w() + "," + ok.bbox().h() + "]");
      assertThat(okJson.get("provenance").get("bus_name").asText()).isEqualTo(ok.busName());
      assertThat(okJson.get("provenance").get("path").asText()).isEqualTo(ok.path());
      assertThat(WireCodec.decode(WireCodec.encode(msg))).isEqualTo(msg);
    } finally {
      app.stop();
    }
  }

  @Test
  void refsAreStableAndTypingShowsOneChangedLine() throws Exception {
    DesktopApp app = new DesktopApp(desktop.launch("zenity", "--entry", "--title", "Type",
        "--text", "Type here:"));
    try (StructuredObserver o = engine.openSession()) {
      Observation first = awaitTree(o, windowNamed("Type"));
      Observation again = o.observe(new ObserveRequest(true, 0));
      assertThat(again.elements()).isEqualTo(first.elements());
      assertThat(again.tree()).isEqualTo(TreeForm.DIFF);
      assertThat(again.revision()).isEqualTo(first.revision() + 1);
      assertThat(again.diffOf()).hasValue(first.revision());
      assertThat(again.treeText()).contains("\n= no changes since revision " + first.revision()
          + "\n");
      assertThat(diffBody(again)).isEmpty();

      AtspiElement entry = entry(first);
      ScreenPoint p = o.resolveCenter(entry.ref(), W, H);
      assertThat(p).isEqualTo(entry.bbox().centreClippedTo(W, H));
      desktop.xdotool("mousemove", "--sync", Integer.toString(p.x()), Integer.toString(p.y()));
      desktop.xdotool("click", "1");
      desktop.xdotool("type", "--delay", "20", "hello");
      Observation typed = awaitDiff(o, ob -> ob.element(entry.ref())
          .flatMap(AtspiElement::value).filter("hello"::equals).isPresent());
      assertThat(typed.tree()).isEqualTo(TreeForm.DIFF);
      assertThat(diffBody(typed)).containsExactly(
          "~ " + entry.ref() + " text (editable,focused) Value:\"hello\" Actions:"
              + String.join(",", entry.actions()));
      ObservationMsg msg = AtspiWire.observation("c-9", typed);
      assertThat(WireContract.bundled().validate(WireCodec.toJson(msg))).isEmpty();
      assertThat(msg.tree()).isEqualTo(dev.agentdesk.aci.wire.TreeForm.DIFF);
      assertThat(msg.diffOf()).isEqualTo(typed.revision() - 1);
      assertThat(typed.elements().stream().map(AtspiElement::ref).toList())
          .isEqualTo(first.elements().stream().map(AtspiElement::ref).toList());
    } finally {
      app.stop();
    }
  }

  /** Diff-observes until {@code ready}; every observe in between is a diff too. */
  static Observation awaitDiff(StructuredObserver o, Predicate<Observation> ready)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Observation last = null;
    while (System.nanoTime() < deadline) {
      last = o.observe(new ObserveRequest(true, 100));
      if (ready.test(last)) {
        return last;
      }
    }
    throw new AssertionError("never saw the change; last:\n" + last.treeText());
  }

  @Test
  void setValueReadsBackInvokeOkClosesTheDialogAndItsRefsGoStale() throws Exception {
    DesktopApp app = new DesktopApp(desktop.launch("zenity", "--entry", "--title", "Name",
        "--text", "Name:"));
    try (StructuredObserver o = engine.openSession()) {
      Observation ob = awaitTree(o, windowNamed("Name"));
      AtspiElement entry = entry(ob);
      AtspiElement ok = button(ob, "OK");

      o.setValue(entry.ref(), "alice");
      Observation after = o.observe(new ObserveRequest(false, 300));
      assertThat(after.element(entry.ref()).flatMap(AtspiElement::value)).contains("alice");
      // settle waited for the quiet window after the text-changed events set_value caused.
      assertThat(after.captureMs()).isGreaterThanOrEqualTo(250.0);

      assertThatThrownBy(() -> o.invokeAction(ok.ref(), "explode"))
          .isInstanceOfSatisfying(StructuredObservationException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.VERB_FAILED);
            assertThat(e.getMessage()).isEqualTo("invoke_action " + ok.ref()
                + " failed: no action named \"explode\" (available: "
                + String.join(", ", ok.actions()) + ")");
          });
      assertThatThrownBy(() -> o.setValue(ok.ref(), "x"))
          .isInstanceOfSatisfying(StructuredObservationException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.VERB_FAILED);
            assertThat(e.getMessage()).startsWith("set_value " + ok.ref()
                + " failed: the element has neither EditableText nor Value");
          });

      o.invokeAction(ok.ref(), null);
      assertThat(app.gui().waitForExit(10, TimeUnit.SECONDS)).isTrue();
      assertThat(app.gui().process().exitValue()).isZero();
      assertThat(app.gui().stdout()).isEqualTo("alice\n");

      String stale = ok.ref() + " is not in the live tree (it disappeared or was never minted)"
          + " \u2014 re-observe and retry";
      assertStale(() -> o.invokeAction(ok.ref(), null), stale);
      assertStale(() -> o.setValue(entry.ref(), "bob"), entry.ref()
          + " is not in the live tree (it disappeared or was never minted) \u2014 re-observe and retry");
      assertStale(() -> o.resolveCenter(ok.ref(), W, H), stale);

      Observation gone = o.observe(new ObserveRequest(true, 0));
      assertThat(gone.element(ok.ref())).isEmpty();
      assertStale(() -> o.invokeAction(ok.ref(), null), stale);
      assertStale(() -> o.invokeAction("e0", null),
          "malformed element_ref \"e0\" (expected e<N>)");
      assertStale(() -> o.invokeAction("button-3", null),
          "malformed element_ref \"button-3\" (expected e<N>)");
    } finally {
      app.stop();
    }
  }

  static void assertStale(Runnable r, String detail) {
    assertThatThrownBy(r::run).isInstanceOfSatisfying(StructuredObservationException.class,
        e -> {
          assertThat(e.kind()).isEqualTo(Kind.STALE_REF);
          assertThat(e.getMessage()).isEqualTo("stale_element_ref: " + detail);
        });
  }

  @Test
  void switchingWindowsDiffsWithAddedAndRemovedLinesOrFallsBackPastTheBudget()
      throws Exception {
    DesktopApp first = new DesktopApp(desktop.launch("zenity", "--entry", "--title", "One",
        "--text", "First:"));
    DesktopApp second = null;
    AtspiEngine tight = AtspiEngine.create(desktop.settings()
        .withLimits(WalkLimits.DEFAULTS.withDiffLineBudget(3)));
    try (StructuredObserver roomy = engine.openSession();
        StructuredObserver small = tight.openSession()) {
      Observation base = awaitTree(roomy, windowNamed("One"));
      Observation smallBase = awaitTree(small, windowNamed("One"));
      second = new DesktopApp(desktop.launch("zenity", "--entry", "--title", "Two",
          "--text", "Second:"));
      Observation switched = awaitDiff(roomy, windowNamed("Two"));
      assertThat(switched.tree()).isEqualTo(TreeForm.DIFF);
      List<String> body = diffBody(switched);
      assertThat(body).anyMatch(l -> l.matches("\\+ e[0-9]+ dialog \\(active\\) \"Two\""));
      assertThat(body).anyMatch(l -> l.matches("\\+ e[0-9]+ label \"Second:\""));
      assertThat(body).noneMatch(l -> l.startsWith("~ "));
      List<String> removedLines = body.stream().filter(l -> l.startsWith("- removed: ")).toList();
      assertThat(removedLines).hasSize(1);
      // Every line of the old window is summarized in id ranges.
      List<String> oldRefs = base.elements().stream().filter(e -> !e.role().equals("filler"))
          .map(AtspiElement::ref).toList();
      for (String ref : oldRefs) {
        long id = Long.parseLong(ref.substring(1));
        assertThat(coveredBy(removedLines.get(0), id)).as(ref + " in " + removedLines).isTrue();
      }
      assertThat(switched.diffOf()).hasValue(switched.revision() - 1);
      assertThat(switched.treeText()).contains("| diff_of: " + (switched.revision() - 1) + "\n");

      Observation smallSwitched = awaitDiff(small, windowNamed("Two"));
      assertThat(smallSwitched.tree()).isEqualTo(TreeForm.FULL);
      assertThat(smallSwitched.diffOf()).isEmpty();
      assertThat(smallSwitched.revision()).isGreaterThan(smallBase.revision());
      assertThat(smallSwitched.treeText()).doesNotContain("diff_of").contains(" label \"Second:\"");
    } finally {
      tight.close();
      first.stop();
      if (second != null) {
        second.stop();
      }
    }
  }

  static boolean coveredBy(String removedLine, long id) {
    for (String part : removedLine.substring("- removed: ".length()).split(", ")) {
      String[] ends = part.split("-");
      long from = Long.parseLong(ends[0].substring(1));
      long to = ends.length > 1 ? Long.parseLong(ends[1].substring(1)) : from;
      if (id >= from && id <= to) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aHungApplicationIsSkippedAfterThePerCallTimeout() throws Exception {
    DesktopApp app = new DesktopApp(desktop.launch("zenity", "--entry", "--title", "Hang",
        "--text", "Frozen:"));
    try (StructuredObserver o = engine.openSession()) {
      Observation ob = awaitTree(o, windowNamed("Hang"));
      AtspiElement ok = button(ob, "OK");
      long pid = app.gui().process().pid();
      desktop.run(List.of("kill", "-STOP", Long.toString(pid)));
      try {
        assertThatThrownBy(() -> o.invokeAction(ok.ref(), null))
            .isInstanceOfSatisfying(StructuredObservationException.class, e -> {
              assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
              assertThat(e.getMessage()).isEqualTo("invoke_action " + ok.ref()
                  + " failed: AT-SPI call timed out after 250ms (Accessible.GetState)");
            });
        long start = System.nanoTime();
        Observation frozen = o.observe(ObserveRequest.FULL);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(tookMs).isLessThan(engine.limits().request().toMillis());
        assertThat(frozen.elements()).noneMatch(e -> e.name().equals("Hang"));
        assertThat(frozen.limitsHit()).anyMatch(n -> n.matches(
            "[0-9]+ AT-SPI call\\(s\\) timed out after 250 ms; unresponsive application\\(s\\) skipped"));
        assertThat(frozen.treeText()).contains("\n! ");
        // The ref is no longer in the last observation: stale, without waiting on the hung app.
        assertStale(() -> o.invokeAction(ok.ref(), null), ok.ref() + " is not in the live tree"
            + " (it disappeared or was never minted) \u2014 re-observe and retry");
      } finally {
        desktop.run(List.of("kill", "-CONT", Long.toString(pid)));
      }
      Observation back = awaitTree(o, windowNamed("Hang"));
      assertThat(back.limitsHit()).isEmpty();
      // The cut walk evicted nothing, so the thawed dialog keeps its refs.
      assertThat(button(back, "OK").ref()).isEqualTo(ok.ref());
    } finally {
      app.stop();
    }
  }

  /** A launched app that the test stops even when an assertion fails. */
  record DesktopApp(AtspiDesktop.GuiApp gui) {
    void stop() {
      gui.process().destroy();
    }
  }
}
