package dev.agentdesk.aci.runtime.atspi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.runtime.atspi.AtspiElement;
import dev.agentdesk.aci.runtime.atspi.Bbox;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The rendering rules on hand-made elements (the engine tests check the same text against live
 * GTK trees).
 */
class TreeTextTest {
  static AtspiElement el(String ref, String parent, String role, String name, String value,
      List<String> states, List<String> actions) {
    return new AtspiElement(ref, Optional.ofNullable(parent), parent == null ? 1 : 2, role, name,
        "", Optional.ofNullable(value), states, actions, states.contains("focused"),
        new Bbox(0, 0, 10, 10), ":1.1", "/org/a11y/atspi/accessible/" + ref.substring(1));
  }

  static final List<String> BUTTON = List.of("enabled", "focusable", "sensitive", "showing");

  @Test
  void fullTreeIndentsByRenderedDepthAndElidesAnonymousContainers() {
    List<AtspiElement> els = List.of(
        el("e1", null, "frame", "Main", null, List.of("active", "showing"), List.of()),
        el("e2", "e1", "filler", "", null, List.of("showing"), List.of()),
        el("e3", "e2", "push button", "Say \"hi\"", null, BUTTON, List.of("click")),
        el("e4", "e2", "text", "", "a\nb", List.of("editable", "focused", "focusable",
            "sensitive"), List.of("activate")),
        el("e5", "e1", "check box", "Off", null, List.of("focusable"), List.of("toggle")));
    String text = TreeText.full(TreeText.header("gtk3-widget-factory", "Main", "frame", 4,
        Optional.empty()), List.of(), els, Optional.of("e4"));
    assertThat(text).isEqualTo(String.join("\n",
        "app: gtk3-widget-factory | window: \"Main\" (frame) | revision: 4",
        "e1 frame (active) \"Main\"",
        "  e3 push_button \"Say \\\"hi\\\"\" Actions:click",
        "  e4 text (editable,focused) Value:\"a\\nb\" Actions:activate",
        "  e5 check_box (disabled) \"Off\" Actions:toggle",
        "focus: e4"));
  }

  @Test
  void rolesKeepAtspiNamesInElementsAndAreOneTokenInTheText() {
    // "layered pane" and "root pane" are AT-SPI's names for layout containers: elided when
    // anonymous; a named one gets a line with the compact role.
    List<AtspiElement> els = List.of(
        el("e1", null, "file chooser", "Open", null, List.of("showing"), List.of()),
        el("e2", "e1", "root pane", "", null, List.of("showing"), List.of()),
        el("e3", "e2", "layered pane", "", null, List.of("showing"), List.of()),
        el("e4", "e3", "page tab list", "Places", null, List.of("showing"), List.of()),
        el("e5", "e1", "layered pane", "Named", null, List.of("showing"), List.of()));
    assertThat(els.get(3).role()).isEqualTo("page tab list");
    String text = TreeText.full(TreeText.header("gedit", "Open", "file chooser", 1,
        Optional.empty()), List.of(), els, Optional.empty());
    assertThat(text).isEqualTo(String.join("\n",
        "app: gedit | window: \"Open\" (file_chooser) | revision: 1",
        "e1 file_chooser \"Open\"",
        "  e4 page_tab_list \"Places\"",
        "  e5 layered_pane \"Named\"",
        "focus: none"));
  }

  @Test
  void limitNotesFollowTheHeader() {
    String text = TreeText.full("h", List.of("node cap 5 reached"), List.of(), Optional.empty());
    assertThat(text).isEqualTo("h\n! node cap 5 reached\nfocus: none");
  }

  @Test
  void diffShowsChangedAddedAndSummarizedRemovedLines() {
    List<AtspiElement> before = List.of(
        el("e1", null, "frame", "Main", null, List.of(), List.of()),
        el("e2", "e1", "label", "Old", null, List.of(), List.of()),
        el("e3", "e1", "label", "Gone 1", null, List.of(), List.of()),
        el("e4", "e1", "label", "Gone 2", null, List.of(), List.of()),
        el("e5", "e1", "label", "Gone 3", null, List.of(), List.of()),
        el("e7", "e1", "label", "Gone 4", null, List.of(), List.of()),
        el("e8", "e1", "label", "Same", null, List.of(), List.of()));
    List<AtspiElement> after = List.of(
        el("e1", null, "frame", "Main", null, List.of(), List.of()),
        el("e2", "e1", "label", "New", null, List.of(), List.of()),
        el("e8", "e1", "label", "Same", null, List.of(), List.of()),
        el("e9", "e1", "push button", "Added", null, BUTTON, List.of("click")));
    List<String> body = TreeText.diffLines(TreeText.snapshot(1, before),
        TreeText.snapshot(2, after));
    assertThat(body).containsExactly("~ e2 label \"New\"",
        "+ e9 push_button \"Added\" Actions:click", "- removed: e3-e5, e7");
    assertThat(TreeText.diff("h", List.of(), body, 1, Optional.empty()))
        .isEqualTo("h\n~ e2 label \"New\"\n+ e9 push_button \"Added\" Actions:click\n"
            + "- removed: e3-e5, e7\nfocus: none");
  }

  @Test
  void identicalTreesGiveTheNoChangeNotice() {
    List<AtspiElement> els = List.of(el("e1", null, "frame", "Main", null, List.of(), List.of()));
    List<String> body = TreeText.diffLines(TreeText.snapshot(1, els), TreeText.snapshot(2, els));
    assertThat(body).isEmpty();
    assertThat(TreeText.diff("h", List.of(), body, 1, Optional.of("e1")))
        .isEqualTo("h\n= no changes since revision 1\nfocus: e1");
  }

  @Property
  void removedRangesCoverExactlyTheRemovedIds(
      @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 1, max = 200) Integer> ids) {
    TreeSet<Long> set = new TreeSet<>();
    ids.forEach(i -> set.add((long) i));
    String ranges = TreeText.ranges(set);
    TreeSet<Long> back = new TreeSet<>();
    long previousEnd = -1;
    for (String part : ranges.split(", ")) {
      String[] ends = part.split("-");
      long from = Long.parseLong(ends[0].substring(1));
      long to = ends.length > 1 ? Long.parseLong(ends[1].substring(1)) : from;
      assertThat(from).isLessThanOrEqualTo(to).isGreaterThan(previousEnd + 1);
      previousEnd = to;
      for (long i = from; i <= to; i++) {
        back.add(i);
      }
    }
    assertThat(back).isEqualTo(set);
  }

  @Test
  void statesDecodeFromTheTwoWords() {
    long bits = AtspiStates.fromWords(List.of(1126170882L, 128L));
    assertThat(AtspiStates.names(bits)).containsExactly("active", "enabled", "resizable",
        "sensitive", "showing", "visible", "is_default");
  }

  @Test
  void refsAreNeverReusedAfterEviction() {
    RefTable t = new RefTable();
    NodeId a = new NodeId(":1.1", "/a");
    NodeId b = new NodeId(":1.1", "/b");
    assertThat(t.refFor(a)).isEqualTo("e1");
    assertThat(t.refFor(b)).isEqualTo("e2");
    assertThat(t.refFor(a)).isEqualTo("e1");
    t.retainOnly(java.util.Set.of(b));
    assertThat(t.refFor(a)).isEqualTo("e3");
    assertThat(t.refFor(b)).isEqualTo("e2");
  }

  @Test
  void busAddressListsPickTheFirstUnixEntry() {
    assertThat(BusLocator.firstSupported("tcp:host=x,port=1;unix:path=/run/bus,guid=1"))
        .contains("unix:path=/run/bus,guid=1");
    assertThat(BusLocator.firstSupported("unix:abstract=/tmp/dbus-x,guid=2"))
        .contains("unix:abstract=/tmp/dbus-x,guid=2");
    assertThat(BusLocator.firstSupported("unix:tmpdir=/tmp")).isEmpty();
    assertThat(BusLocator.firstSupported(null)).isEmpty();
  }
}
