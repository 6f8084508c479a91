package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import java.util.List;

/**
 * One accessible element of a structured observation (schema {@code Element}). {@code ref},
 * {@code role} and {@code bbox} are required; every other component may be null (absent).
 * {@code provenance} is backend-specific and kept as an open JSON object (a private copy).
 */
public record Element(
    String ref,
    String role,
    String name,
    String description,
    String value,
    List<String> states,
    List<String> actions,
    Boolean focused,
    Bbox bbox,
    ElementSource source,
    ObjectNode provenance) {
  public Element {
    Check.required(ref, "ref");
    Check.required(role, "role");
    Check.required(bbox, "bbox");
    states = Check.list(states, "states");
    actions = Check.list(actions, "actions");
    if (provenance != null) {
      provenance = provenance.deepCopy();
    }
  }

  /** A minimal element: ref, role and bounds. */
  public static Element of(String ref, String role, Bbox bbox) {
    return new Element(ref, role, null, null, null, null, null, null, bbox, null, null);
  }

  /** The provenance as a copy the caller may change, or null. */
  @Override
  public ObjectNode provenance() {
    return provenance == null ? null : provenance.deepCopy();
  }

  static ObjectNode requireObject(JsonNode node, String field) {
    if (node != null && !node.isObject()) {
      throw new WireException(WireException.Reason.WRONG_TYPE, "/" + field, "must be an object");
    }
    return (ObjectNode) node;
  }
}
