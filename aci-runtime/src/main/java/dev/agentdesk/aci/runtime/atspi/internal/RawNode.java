package dev.agentdesk.aci.runtime.atspi.internal;

import dev.agentdesk.aci.runtime.atspi.Bbox;
import java.util.List;
import java.util.Optional;

/**
 * One accessible as the walk saw it, before refs are minted.
 *
 * @param parent index of the parent in the walk's node list; -1 for a top-level window
 * @param depth 1 for a top-level window
 * @param states AT-SPI state bits (see {@link AtspiStates})
 */
public record RawNode(
    NodeId id,
    int parent,
    int depth,
    String role,
    String name,
    String description,
    long states,
    List<String> interfaces,
    Bbox bbox,
    List<String> actions,
    Optional<String> value) {

  public RawNode {
    interfaces = List.copyOf(interfaces);
    actions = List.copyOf(actions);
  }

  public boolean has(int state) {
    return AtspiStates.has(states, state);
  }

  public boolean implementsInterface(String shortName) {
    return interfaces.contains("org.a11y.atspi." + shortName);
  }
}
