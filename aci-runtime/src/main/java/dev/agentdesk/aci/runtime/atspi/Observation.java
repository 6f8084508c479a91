package dev.agentdesk.aci.runtime.atspi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The result of one structured {@code observe}: the wire observation's tree fields.
 *
 * @param tree whether {@code treeText} is the full tree or a diff
 * @param treeText the rendering for the model
 * @param revision this session's observation number, from 1
 * @param diffOf the baseline revision when {@code tree} is {@link TreeForm#DIFF}
 * @param focus ref of the focused element, if any
 * @param capture guest-side time spent (settle + walk + render) in milliseconds
 * @param elements the full live list, whatever {@code tree} is
 * @param limitsHit human-readable notes for every cap the walk hit (empty when complete); the
 *     same notes appear as {@code !} lines in {@code treeText}
 */
public record Observation(
    TreeForm tree,
    String treeText,
    long revision,
    OptionalLong diffOf,
    Optional<String> focus,
    double captureMs,
    List<AtspiElement> elements,
    List<String> limitsHit) {

  /** What {@code tree_text} holds. */
  public enum TreeForm {
    FULL("full"),
    DIFF("diff");

    private final String wire;

    TreeForm(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }

  public Observation {
    Objects.requireNonNull(tree);
    Objects.requireNonNull(treeText);
    Objects.requireNonNull(diffOf);
    Objects.requireNonNull(focus);
    elements = List.copyOf(elements);
    limitsHit = List.copyOf(limitsHit);
    if ((tree == TreeForm.DIFF) != diffOf.isPresent()) {
      throw new IllegalArgumentException("diff_of is present exactly when tree is diff");
    }
  }

  public int nodeCount() {
    return elements.size();
  }

  public boolean truncated() {
    return !limitsHit.isEmpty();
  }

  public Optional<AtspiElement> element(String ref) {
    return elements.stream().filter(e -> e.ref().equals(ref)).findFirst();
  }
}
