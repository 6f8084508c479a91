package dev.agentdesk.aci.runtime.atspi;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.wire.Element;
import dev.agentdesk.aci.wire.ElementSource;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.TreeForm;
import java.util.ArrayList;
import java.util.List;

/** Turns engine results into ACI wire types. */
public final class AtspiWire {
  private AtspiWire() {}

  /**
   * The wire element. Empty name/description and empty action lists are left out (absent means
   * "none" on the wire); an empty value is kept, since an empty text field is a fact.
   * Provenance is {@code {"bus_name": ":1.42", "path": "/org/a11y/atspi/accessible/7"}}.
   */
  public static Element element(AtspiElement e) {
    ObjectNode provenance = JsonNodeFactory.instance.objectNode();
    provenance.put("bus_name", e.busName());
    provenance.put("path", e.path());
    Bbox b = e.bbox();
    return new Element(e.ref(), e.role(), e.name().isEmpty() ? null : e.name(),
        e.description().isEmpty() ? null : e.description(), e.value().orElse(null), e.states(),
        e.actions().isEmpty() ? null : e.actions(), e.focused(),
        new dev.agentdesk.aci.wire.Bbox(b.x(), b.y(), b.w(), b.h()), ElementSource.ATSPI,
        provenance);
  }

  /**
   * The {@code observation} answering the {@code observe} action {@code callId}
   * ({@code obs_id} = {@code obs-<callId>}, {@code cause} = {@code callId}).
   */
  public static ObservationMsg observation(String callId, Observation o) {
    List<Element> elements = new ArrayList<>(o.elements().size());
    for (AtspiElement e : o.elements()) {
      elements.add(element(e));
    }
    return ObservationMsg.builder("obs-" + callId)
        .cause(callId)
        .tree(o.tree() == Observation.TreeForm.DIFF ? TreeForm.DIFF : TreeForm.FULL)
        .treeText(o.treeText())
        .revision(o.revision())
        .diffOf(o.diffOf().isPresent() ? o.diffOf().getAsLong() : null)
        .focus(o.focus().orElse(null))
        .nodeCount((long) o.nodeCount())
        .captureMs(o.captureMs())
        .elements(elements)
        .build();
  }
}
