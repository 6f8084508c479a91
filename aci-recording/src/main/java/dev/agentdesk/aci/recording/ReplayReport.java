package dev.agentdesk.aci.recording;

/**
 * What a replay found: how many recorded client messages were sent again, how many replies were
 * compared (of them observations with an image or a tree), and the first divergence (null when the
 * replay matched).
 */
public record ReplayReport(int sent, int repliesCompared, int observationsCompared, Divergence firstDivergence) {
  public boolean matched() {
    return firstDivergence == null;
  }
}
