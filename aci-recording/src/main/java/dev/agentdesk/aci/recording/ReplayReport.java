package dev.agentdesk.aci.recording;

import java.util.List;

/**
 * What a replay found: how many recorded client messages were sent again of how many the
 * recording has, how many replies were compared (of them observations), and the divergences in
 * order (empty when the replay matched; one when it stopped at the first).
 */
public record ReplayReport(int sent, int recordedMessages, int repliesCompared, int observationsCompared,
    List<Divergence> divergences) {
  public ReplayReport {
    divergences = List.copyOf(divergences);
  }

  public boolean matched() {
    return divergences.isEmpty();
  }

  /** The first divergence, or null. */
  public Divergence firstDivergence() {
    return divergences.isEmpty() ? null : divergences.get(0);
  }

  /** Every recorded message was sent (a replay that stopped at a divergence did not get there). */
  public boolean playedToTheEnd() {
    return sent == recordedMessages;
  }
}
