package dev.agentdesk.aci.runtime.atspi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One element of a structured observation: the wire {@code Element} (source {@code atspi}) in
 * engine terms. Strings that the application left empty are empty here, never null.
 *
 * @param ref the session's stable id {@code e<N>}
 * @param parentRef the nearest walked ancestor's ref; empty for a top-level window
 * @param depth the depth below the application (windows are depth 1)
 * @param role the role name exactly as AT-SPI gives it ({@code GetRoleName}), e.g. {@code push button};
 *     {@code tree_text} shows a compact one-token form ({@code push_button})
 * @param value text content for editable text, the current number for a Value; empty if neither
 * @param states AT-SPI state names in lowercase, e.g. {@code focused}, {@code editable}
 * @param actions AT-SPI action names, in the order {@code DoAction} indexes them
 * @param busName provenance: the unique bus name of the owning application
 * @param path provenance: the accessible's D-Bus object path
 */
public record AtspiElement(
    String ref,
    Optional<String> parentRef,
    int depth,
    String role,
    String name,
    String description,
    Optional<String> value,
    List<String> states,
    List<String> actions,
    boolean focused,
    Bbox bbox,
    String busName,
    String path) {

  public static final String SOURCE = "atspi";

  public AtspiElement {
    Objects.requireNonNull(ref);
    Objects.requireNonNull(parentRef);
    Objects.requireNonNull(role);
    Objects.requireNonNull(name);
    Objects.requireNonNull(description);
    Objects.requireNonNull(value);
    states = List.copyOf(states);
    actions = List.copyOf(actions);
    Objects.requireNonNull(bbox);
    Objects.requireNonNull(busName);
    Objects.requireNonNull(path);
  }

  public boolean hasState(String state) {
    return states.contains(state);
  }
}
